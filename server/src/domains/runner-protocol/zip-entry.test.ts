import yazl from 'yazl';
import { describe, expect, it } from 'vitest';
import { normalizeEntryPath, readZipEntry } from './zip-entry.js';

function zip(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) archive.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  archive.end();
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    archive.outputStream.on('data', (piece: Buffer) => pieces.push(piece));
    archive.outputStream.on('end', () => resolve(Buffer.concat(pieces)));
    archive.outputStream.on('error', reject);
  });
}

describe('normalizeEntryPath', () => {
  it.each([
    ['out/report.txt', 'out/report.txt'],
    ['/out//report.txt', 'out/report.txt'],
    ['./out/./report.txt', 'out/report.txt'],
    ['../etc/passwd', null],
    ['out/../../x', null],
    ['out\\x', null],
    ['a\0b', null],
    ['', null],
  ])('%s → %s', (input, expected) => expect(normalizeEntryPath(input)).toBe(expected));
});

describe('readZipEntry', () => {
  it('reads one file, and says when it is missing', async () => {
    const archive = await zip({ 'out/report.txt': 'all good\n', 'out/other.txt': 'x' });
    expect(await readZipEntry(archive, 'out/report.txt')).toEqual({ found: true, data: Buffer.from('all good\n') });
    expect(await readZipEntry(archive, '/out/report.txt')).toMatchObject({ found: true });
    expect(await readZipEntry(archive, 'out/none.txt')).toEqual({ found: false, reason: 'missing' });
    expect(await readZipEntry(archive, '../out/report.txt')).toEqual({ found: false, reason: 'missing' });
  });

  it('stops at an entry unpacking past the limit (a zip bomb)', async () => {
    const archive = await zip({ 'bomb.bin': Buffer.alloc(2 * 1024 * 1024) });
    expect(archive.length).toBeLessThan(100 * 1024);
    expect(await readZipEntry(archive, 'bomb.bin', 1024 * 1024)).toEqual({ found: false, reason: 'too_large' });
  });

  it('refuses what is not a zip', async () => {
    expect(await readZipEntry(Buffer.from('not a zip at all'), 'x')).toEqual({ found: false, reason: 'invalid' });
  });
});
