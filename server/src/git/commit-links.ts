/**
 * A commit's tree and parents, read from its object through the long-lived cat-file reader
 * (object-reader.ts): no process start for a few hundred bytes.
 */
import { objectReader, type ObjectReader } from './object-reader.js';

export interface CommitLinks {
  tree: string;
  /** in order: the first parent first */
  parents: string[];
}

const HEX_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The `tree` and `parent` headers of a raw commit object; null when it is not one. Pure. */
export function parseCommitLinks(content: Buffer): CommitLinks | null {
  const text = content.toString('latin1');
  const headerEnd = text.indexOf('\n\n');
  const lines = (headerEnd === -1 ? text : text.slice(0, headerEnd)).split('\n');
  const [first, ...rest] = lines;
  if (!first?.startsWith('tree ')) return null;
  const tree = first.slice(5);
  if (!HEX_ID.test(tree)) return null;
  const parents: string[] = [];
  // git writes the parents right after the tree, before author and committer.
  for (const line of rest) {
    if (!line.startsWith('parent ')) break;
    const parent = line.slice(7);
    if (!HEX_ID.test(parent)) return null;
    parents.push(parent);
  }
  return { tree, parents };
}

/** The tree and parents of the commit `sha` (a full id); null when there is no such commit. */
export async function readCommitLinks(repoPath: string, sha: string, reader: ObjectReader = objectReader): Promise<CommitLinks | null> {
  const object = await reader.read(repoPath, sha);
  return object?.type === 'commit' ? parseCommitLinks(object.content) : null;
}
