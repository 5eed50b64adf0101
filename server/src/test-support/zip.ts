/** A zip archive holding `files` (path → text), as a runner uploads its artifacts. */
export async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const yazl = (await import('yazl')).default;
  const zip = new yazl.ZipFile();
  for (const [path, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), path);
  zip.end();
  const pieces: Buffer[] = [];
  for await (const piece of zip.outputStream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}
