/** Git's pkt-line framing: four hex digits of length (including themselves), then the data. */
export function pktLine(data: string): string {
  const length = Buffer.byteLength(data) + 4;
  return length.toString(16).padStart(4, '0') + data;
}

export const FLUSH_PKT = '0000';

/** The first lines of a smart HTTP ref advertisement (protocol v0/v1). */
export function serviceAdvertisementHeader(service: string): string {
  return pktLine(`# service=${service}\n`) + FLUSH_PKT;
}
