/**
 * Pure parsers for tree listings (`ls-tree -z -l`) and batched object reads
 * (`cat-file --batch`). Names are bytes in git; they are decoded as UTF-8 with the
 * replacement character for invalid sequences, the same way everywhere in the adapter.
 */

export type TreeEntryType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  /** Object id: the blob, tree, or (for a submodule) the commit. */
  id: string;
  /** The last path segment. */
  name: string;
  type: TreeEntryType;
  /** Path from the repository root. */
  path: string;
  /** Octal mode as git prints it: `100644`, `100755`, `120000`, `040000`, `160000`. */
  mode: string;
  /** Blob size in bytes; null for trees and submodules. */
  size: number | null;
}

const NUL = 0;
const TAB = 0x09;
const LF = 0x0a;

/**
 * `ls-tree -z -l` output: `<mode> <type> <id> <size>\t<path>\0` per entry. `prefix` is the
 * directory that was listed (its path is prepended), or '' for the root.
 */
export function parseLsTree(stdout: Buffer, prefix = ''): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let start = 0;
  while (start < stdout.length) {
    let end = stdout.indexOf(NUL, start);
    if (end === -1) end = stdout.length;
    const tab = stdout.indexOf(TAB, start);
    if (tab === -1 || tab > end) throw new Error('unexpected ls-tree output');
    const [mode, type, id, size] = stdout.toString('latin1', start, tab).trim().split(/ +/) as [string, TreeEntryType, string, string];
    const relative = stdout.toString('utf8', tab + 1, end);
    const path = prefix ? `${prefix}/${relative}` : relative;
    entries.push({ id, name: path.slice(path.lastIndexOf('/') + 1), type, path, mode, size: size === '-' || size === undefined ? null : Number(size) });
    start = end + 1;
  }
  return entries;
}

export interface BatchObject {
  id: string;
  type: string;
  size: number;
  content: Buffer;
}

/**
 * `cat-file --batch` output for object-id input: `<id> <type> <size>\n<content>\n`, or
 * `<input> missing\n` (also `ambiguous`). Returns one item per input line, in order.
 */
export function parseCatFileBatch(stdout: Buffer): Array<BatchObject | null> {
  const objects: Array<BatchObject | null> = [];
  let offset = 0;
  while (offset < stdout.length) {
    const lineEnd = stdout.indexOf(LF, offset);
    if (lineEnd === -1) throw new Error('truncated cat-file output');
    const header = stdout.toString('latin1', offset, lineEnd).split(' ');
    offset = lineEnd + 1;
    if (header.length !== 3) {
      objects.push(null);
      continue;
    }
    const [id, type, sizeText] = header as [string, string, string];
    const size = Number(sizeText);
    if (offset + size > stdout.length) throw new Error('truncated cat-file output');
    objects.push({ id, type, size, content: stdout.subarray(offset, offset + size) });
    offset += size + 1;
  }
  return objects;
}
