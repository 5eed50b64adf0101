import yauzl from 'yauzl';

/** The most one file read out of an artifacts archive may unpack to (a zip bomb stops here). */
export const MAX_ENTRY_BYTES = 50 * 1024 * 1024;
/** Entries looked at before giving up on an archive (a central directory of millions). */
export const MAX_ENTRIES = 200_000;

export type ZipEntryResult = { found: true; data: Buffer } | { found: false; reason: 'missing' | 'too_large' | 'invalid' };

/**
 * The path inside an archive, normalized: no leading slash, no `.`/`..` segments, no backslashes
 * or NUL. Null for a path that is not one (a zip-slip attempt). Pure.
 */
export function normalizeEntryPath(path: string): string | null {
  if (path.includes('\0') || path.includes('\\')) return null;
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.some((segment) => segment === '..')) return null;
  return segments.join('/');
}

/**
 * One file of a zip archive held in memory (GET …/artifacts/*path). Nothing is written to disk,
 * so entry names cannot escape anywhere; yauzl refuses names that are absolute or contain `..`,
 * and checks that each entry unpacks to the size its header declares. An entry declaring more
 * than `maxBytes`, or unpacking to more, is `too_large`.
 */
export function readZipEntry(archive: Buffer, path: string, maxBytes = MAX_ENTRY_BYTES): Promise<ZipEntryResult> {
  const wanted = normalizeEntryPath(path);
  if (wanted === null) return Promise.resolve({ found: false, reason: 'missing' });
  return new Promise((resolve) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return resolve({ found: false, reason: 'invalid' });
      let seen = 0;
      let settled = false;
      const finish = (result: ZipEntryResult) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(result);
      };
      zip.on('error', () => finish({ found: false, reason: 'invalid' }));
      zip.on('end', () => finish({ found: false, reason: 'missing' }));
      zip.on('entry', (entry: yauzl.Entry) => {
        seen += 1;
        if (seen > MAX_ENTRIES) return finish({ found: false, reason: 'invalid' });
        if (entry.fileName.endsWith('/') || normalizeEntryPath(entry.fileName) !== wanted) return zip.readEntry();
        if (entry.uncompressedSize > maxBytes) return finish({ found: false, reason: 'too_large' });
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return finish({ found: false, reason: 'invalid' });
          const pieces: Buffer[] = [];
          let total = 0;
          stream.on('data', (piece: Buffer) => {
            total += piece.length;
            if (total > maxBytes) {
              stream.destroy();
              return finish({ found: false, reason: 'too_large' });
            }
            pieces.push(piece);
          });
          stream.on('error', () => finish({ found: false, reason: 'invalid' }));
          stream.on('end', () => finish({ found: true, data: Buffer.concat(pieces) }));
        });
      });
      zip.readEntry();
    });
  });
}

/** Every entry of an archive held in memory (its central directory; nothing is unpacked), or null for an invalid one. */
export function listZipEntries(archive: Buffer): Promise<{ path: string; size: number; directory: boolean }[] | null> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(archive, { lazyEntries: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return resolve(null);
      const entries: { path: string; size: number; directory: boolean }[] = [];
      let settled = false;
      const finish = (result: typeof entries | null) => {
        if (settled) return;
        settled = true;
        zip.close();
        resolve(result);
      };
      zip.on('error', () => finish(null));
      zip.on('end', () => finish(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.length >= MAX_ENTRIES) return finish(null);
        const path = normalizeEntryPath(entry.fileName);
        if (path !== null) entries.push({ path, size: entry.uncompressedSize, directory: entry.fileName.endsWith('/') });
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}
