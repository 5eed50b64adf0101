/**
 * The files inside a report artifact, whatever its format: `gzip` (GitLab Runner's: one gzip member
 * per file, concatenated), `zip` (an archive of the matched files) or `raw` (the file itself).
 * Every file is bounded: a member or entry that unpacks past `maxBytes` stops the read with
 * ReportTooLargeError (a decompression bomb never reaches memory whole).
 */
import { inflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

/** The most one report file may unpack to. */
export const MAX_REPORT_FILE_BYTES = 100 * 1024 * 1024;
/** Files read from one artifact at most. */
export const MAX_REPORT_FILES = 1_000;

export class ReportTooLargeError extends Error {
  constructor(limit: number) {
    super(`report file exceeds the limit of ${limit} bytes`);
  }
}

export class ReportFormatError extends Error {}

export async function reportFiles(format: string, data: Buffer, maxBytes = MAX_REPORT_FILE_BYTES): Promise<Buffer[]> {
  if (format === 'gzip') return gzipMembers(data, maxBytes);
  if (format === 'zip') return zipEntries(data, maxBytes);
  if (data.length > maxBytes) throw new ReportTooLargeError(maxBytes);
  return [data];
}

/** Each member of a multi-member gzip stream (RFC 1952), inflated separately. */
export function gzipMembers(data: Buffer, maxBytes = MAX_REPORT_FILE_BYTES): Buffer[] {
  const files: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    if (files.length >= MAX_REPORT_FILES) throw new ReportFormatError('too many files in the report');
    if (data[offset] !== 0x1f || data[offset + 1] !== 0x8b || data[offset + 2] !== 8) {
      // trailing zero padding is allowed after the last member
      if (files.length > 0 && data.subarray(offset).every((byte) => byte === 0)) break;
      throw new ReportFormatError('not a gzip stream');
    }
    const flags = data[offset + 3]!;
    let at = offset + 10;
    if (flags & 4) at += 2 + data.readUInt16LE(at); // FEXTRA
    if (flags & 8) at = data.indexOf(0, at) + 1; // FNAME
    if (flags & 16) at = data.indexOf(0, at) + 1; // FCOMMENT
    if (flags & 2) at += 2; // FHCRC
    if (at <= offset || at > data.length) throw new ReportFormatError('truncated gzip header');
    let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
    try {
      inflated = inflateRawSync(data.subarray(at), { info: true, maxOutputLength: maxBytes }) as unknown as typeof inflated;
    } catch (error) {
      if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ReportTooLargeError(maxBytes);
      throw new ReportFormatError(`invalid gzip data: ${(error as Error).message}`);
    }
    files.push(inflated.buffer);
    offset = at + inflated.engine.bytesWritten + 8; // CRC32 and ISIZE
  }
  return files;
}

/** Every file entry of a zip archive held in memory, in archive order. */
export function zipEntries(archive: Buffer, maxBytes = MAX_REPORT_FILE_BYTES): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return reject(new ReportFormatError('invalid zip archive'));
      const files: Buffer[] = [];
      let settled = false;
      const fail = (reason: Error) => {
        if (settled) return;
        settled = true;
        zip.close();
        reject(reason);
      };
      zip.on('error', () => fail(new ReportFormatError('invalid zip archive')));
      zip.on('end', () => {
        if (!settled) resolve(files);
        settled = true;
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (files.length >= MAX_REPORT_FILES) return fail(new ReportFormatError('too many files in the report'));
        if (entry.uncompressedSize > maxBytes) return fail(new ReportTooLargeError(maxBytes));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(new ReportFormatError('invalid zip archive'));
          const pieces: Buffer[] = [];
          let total = 0;
          stream.on('data', (piece: Buffer) => {
            total += piece.length;
            if (total > maxBytes) {
              stream.destroy();
              return fail(new ReportTooLargeError(maxBytes));
            }
            pieces.push(piece);
          });
          stream.on('error', () => fail(new ReportFormatError('invalid zip archive')));
          stream.on('end', () => {
            files.push(Buffer.concat(pieces));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
