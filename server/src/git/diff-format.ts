/**
 * Pure parser of one `git diff-tree -r -M --raw --numstat -p -z` output: the raw records,
 * then the numstat records, then an empty field, then the patch text.
 *
 * Paths come from the NUL-separated raw records (exact bytes, never quoted), not from the
 * patch headers, so names with spaces, tabs, newlines, quotes or invalid UTF-8 are safe.
 * The patch is split at `diff --git ` line starts: git quotes any name holding a newline in
 * headers and hunk lines always start with ' ', '+', '-', '\' or '@', so the split is exact.
 * A type change (file ↔ symlink ↔ submodule) is one raw record but two patches.
 */

export interface RawDiffRecord {
  oldMode: string;
  newMode: string;
  oldId: string;
  newId: string;
  /** A added, D deleted, M modified, R renamed, C copied, T type changed. */
  status: string;
  /** Similarity percentage for R and C. */
  score: number | null;
  oldPath: string;
  newPath: string;
}

export interface FilePatch {
  record: RawDiffRecord;
  /** Lines added and removed; null for binary files. */
  added: number | null;
  removed: number | null;
  /** The patch chunks of this record, each starting with `diff --git ` (two for a type change). */
  patches: string[];
}

const RAW_HEADER = /^:(\d{6}) (\d{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([A-Z])(\d*)$/;
const NUMSTAT = /^(-|\d+)\t(-|\d+)\t/;

class NulReader {
  offset = 0;
  constructor(private readonly buffer: Buffer) {}
  get done(): boolean {
    return this.offset >= this.buffer.length;
  }
  /** The next NUL-terminated field as latin1 (for matching) without consuming it. */
  peek(): string {
    const end = this.end();
    return this.buffer.toString('latin1', this.offset, end);
  }
  next(): string {
    const end = this.end();
    const text = this.buffer.toString('utf8', this.offset, end);
    this.offset = end + 1;
    return text;
  }
  rest(): string {
    const text = this.buffer.toString('utf8', this.offset);
    this.offset = this.buffer.length;
    return text;
  }
  private end(): number {
    const end = this.buffer.indexOf(0, this.offset);
    return end === -1 ? this.buffer.length : end;
  }
}

function readRawRecords(reader: NulReader): RawDiffRecord[] {
  const records: RawDiffRecord[] = [];
  while (!reader.done) {
    const header = RAW_HEADER.exec(reader.peek());
    if (!header) break;
    reader.next();
    const [, oldMode, newMode, oldId, newId, status, score] = header as unknown as [string, string, string, string, string, string, string];
    const oldPath = reader.next();
    const newPath = status === 'R' || status === 'C' ? reader.next() : oldPath;
    records.push({ oldMode, newMode, oldId, newId, status, score: score ? Number(score) : null, oldPath, newPath });
  }
  return records;
}

function readNumstat(reader: NulReader, count: number): Array<{ added: number | null; removed: number | null }> {
  const stats: Array<{ added: number | null; removed: number | null }> = [];
  for (let i = 0; i < count && !reader.done; i++) {
    const match = NUMSTAT.exec(reader.peek());
    if (!match) break;
    const field = reader.next();
    // A rename's numstat leaves the path empty and gives old and new path as two more fields.
    if (field.length === match[0].length) {
      reader.next();
      reader.next();
    }
    stats.push({ added: match[1] === '-' ? null : Number(match[1]), removed: match[2] === '-' ? null : Number(match[2]) });
  }
  return stats;
}

export function splitPatch(patch: string): string[] {
  if (patch === '') return [];
  const starts: number[] = [];
  const header = /^diff --git /gm;
  for (let match = header.exec(patch); match; match = header.exec(patch)) starts.push(match.index);
  return starts.map((start, i) => patch.slice(start, starts[i + 1] ?? patch.length));
}

export function parseDiffTree(stdout: Buffer): FilePatch[] {
  const reader = new NulReader(stdout);
  const records = readRawRecords(reader);
  const stats = readNumstat(reader, records.length);
  while (!reader.done && reader.peek() === '') reader.next();
  const chunks = splitPatch(reader.rest());
  let chunk = 0;
  return records.map((record, i) => {
    const take = record.status === 'T' ? 2 : 1;
    const patches = chunks.slice(chunk, chunk + take);
    chunk += take;
    return { record, added: stats[i]?.added ?? null, removed: stats[i]?.removed ?? null, patches };
  });
}

/** The hunk text GitLab returns as `diff`: everything from the first `@@`, or the "Binary files" line. */
export function hunkText(patch: string): { text: string; binary: boolean } {
  const hunk = patch.startsWith('@@ ') ? 0 : patch.indexOf('\n@@ ');
  if (hunk !== -1) return { text: patch.slice(hunk === 0 ? 0 : hunk + 1), binary: false };
  const binary = /^Binary files .* differ$/m.exec(patch);
  return binary ? { text: `${binary[0]}\n`, binary: true } : { text: '', binary: false };
}
