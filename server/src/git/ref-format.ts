/**
 * One `for-each-ref` call lists refs with everything a branch or tag list shows: target,
 * peeled commit and its metadata. Pure format + parser; tested on literal output.
 *
 * Each record is FIELDS.length NUL-terminated fields followed by the newline for-each-ref
 * itself adds. Commit fields come from the tag's target for annotated tags (`%(*…)`).
 */
import { constantFlag } from './command.js';
import { buildCommit, type GitCommit } from './commit-format.js';

export interface GitRef {
  /** The full ref name: `refs/heads/main`. */
  ref: string;
  /** The object the ref points at (a tag object for annotated tags). */
  target: string;
  targetType: string;
  /** The commit the ref resolves to, or null when it points at a tree or blob. */
  commit: GitCommit | null;
  /** Annotated tags only: the tag message and tagger date. */
  tagMessage: string | null;
  taggedAt: Date | null;
}

const peeled = (atom: string) => `%(if)%(*objectname)%(then)%(*${atom})%(else)%(${atom})%(end)`;

const FIELDS = [
  '%(refname)',
  '%(objectname)',
  '%(objecttype)',
  '%(*objecttype)',
  peeled('objectname'),
  peeled('parent'),
  peeled('authorname'),
  peeled('authoremail:trim'),
  peeled('authordate:iso-strict'),
  peeled('committername'),
  peeled('committeremail:trim'),
  peeled('committerdate:iso-strict'),
  peeled('contents'),
  '%(if)%(*objectname)%(then)%(contents)%(end)',
  '%(taggerdate:iso-strict)',
] as const;

export const REF_FORMAT = constantFlag(`--format=${FIELDS.map((field) => `${field}%00`).join('')}`);

export function parseRefList(stdout: Buffer | string): GitRef[] {
  const text = typeof stdout === 'string' ? stdout : stdout.toString('utf8');
  const tokens = text.split('\0');
  const refs: GitRef[] = [];
  for (let i = 0; i + FIELDS.length <= tokens.length; i += FIELDS.length) {
    const [refField, target, targetType, peeledType, commitId, parents, authorName, authorEmail, authorDate, committerName, committerEmail, committerDate, message, tagMessage, taggerDate] = tokens.slice(i, i + FIELDS.length) as string[] as [
      string, string, string, string, string, string, string, string, string, string, string, string, string, string, string,
    ];
    const ref = i === 0 ? refField : refField.replace(/^\n/, '');
    const isCommit = (peeledType || targetType) === 'commit';
    refs.push({
      ref,
      target,
      targetType,
      commit: isCommit ? buildCommit({ id: commitId, parents, authorName, authorEmail, authorDate, committerName, committerEmail, committerDate, message }) : null,
      // Gitaly gives a tag's message without the line break git ends it with.
      tagMessage: targetType === 'tag' ? tagMessage.replace(/\n+$/, '') : null,
      taggedAt: targetType === 'tag' && taggerDate ? new Date(taggerDate) : null,
    });
  }
  return refs;
}
