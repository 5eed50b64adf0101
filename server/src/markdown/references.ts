/**
 * GitLab Flavored Markdown references found in plain text: `@user`, `!1` (a merge request
 * of the current project) and `group/project!2` (of another project); labels `~bug`,
 * `~"needs review"`, `~12` (by id), milestones `%v1.0`, `%"Release 1"`, `%3` (by iid), each
 * also after `group/project`. Pure: finding a
 * reference says nothing about whether it exists or whether the reader may see it; the
 * markdown service resolves them with the reader's permissions and only links those.
 */

export type ReferenceCandidate =
  | { kind: 'user'; start: number; end: number; raw: string; username: string }
  | { kind: 'merge_request'; start: number; end: number; raw: string; projectPath: string | null; iid: number }
  /** by id (`~12`) or by name */
  | { kind: 'label'; start: number; end: number; raw: string; projectPath: string | null; id: number | null; name: string | null }
  /** by iid (`%3`, project milestones) or by name */
  | { kind: 'milestone'; start: number; end: number; raw: string; projectPath: string | null; iid: number | null; name: string | null };

// A username as GitLab allows it (letters, digits, `_`, `-`, `.`; not ending in `.`), not
// preceded by a word character so that e-mail addresses are not mentions.
const USER = /(?<![\w@/])@([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?)/y;
// `!12` or `group/sub/project!12`, not glued to a preceding word (`foo!1` is not one).
const MERGE_REQUEST = /(?<![\w/.-])(?:([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+))?!(\d{1,9})(?![\w])/y;

const PATH = '(?:([A-Za-z0-9_.-]+(?:\\/[A-Za-z0-9_.-]+)+))?';
// `~12`, `~"any name"`, `~name` (GitLab's unquoted label characters, not ending in a full stop).
const LABEL = new RegExp(`(?<![\\w/.-])${PATH}~(?:(\\d{1,18})(?![\\w?&-])|"([^"\\n]{1,255})"|([A-Za-z0-9_\\-?.&]*[A-Za-z0-9_\\-?&]))`, 'y');
// `%3`, `%"Release 1"`, `%v1.0` (not ending in a full stop).
const MILESTONE = new RegExp(`(?<![\\w/.-])${PATH}%(?:(\\d{1,9})(?![\\w-]|\\.\\w)|"([^"\\n]{1,255})"|([A-Za-z0-9_\\-.]*[A-Za-z0-9_\\-]))`, 'y');

const MAX_REFERENCES = 200;

/** Every reference in `text`, left to right, without overlaps; at most 200 (the rest stay text). */
export function scanReferences(text: string): ReferenceCandidate[] {
  const found: ReferenceCandidate[] = [];
  for (let i = 0; i < text.length && found.length < MAX_REFERENCES; i++) {
    const char = text[i];
    if (char !== '@' && char !== '!' && char !== '~' && char !== '%' && !/[A-Za-z0-9_.-]/.test(char!)) continue;
    const candidate = char === '@' ? matchUser(text, i) : (matchMergeRequest(text, i) ?? matchLabelOrMilestone(text, i));
    if (candidate) {
      found.push(candidate);
      i = candidate.end - 1;
    }
  }
  return found;
}

function matchUser(text: string, at: number): ReferenceCandidate | null {
  USER.lastIndex = at;
  const match = USER.exec(text);
  if (!match) return null;
  return { kind: 'user', start: at, end: at + match[0].length, raw: match[0], username: match[1]! };
}

function matchMergeRequest(text: string, at: number): ReferenceCandidate | null {
  // A path can only start a reference at a word boundary; skip the middle of words quickly.
  if (text[at] !== '!' && at > 0 && /[A-Za-z0-9_./-]/.test(text[at - 1]!)) return null;
  MERGE_REQUEST.lastIndex = at;
  const match = MERGE_REQUEST.exec(text);
  if (!match) return null;
  const iid = Number(match[2]);
  if (!Number.isSafeInteger(iid) || iid < 1) return null;
  return { kind: 'merge_request', start: at, end: at + match[0].length, raw: match[0], projectPath: match[1] ?? null, iid };
}

function matchLabelOrMilestone(text: string, at: number): ReferenceCandidate | null {
  if (text[at] !== '~' && text[at] !== '%' && at > 0 && /[A-Za-z0-9_./-]/.test(text[at - 1]!)) return null;
  for (const kind of ['label', 'milestone'] as const) {
    const pattern = kind === 'label' ? LABEL : MILESTONE;
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match) continue;
    const base = { start: at, end: at + match[0].length, raw: match[0], projectPath: match[1] ?? null };
    const number = match[2] === undefined ? null : Number(match[2]);
    const name = match[3] ?? match[4] ?? null;
    if (number !== null && (!Number.isSafeInteger(number) || number < 1)) return null;
    return kind === 'label' ? { kind, ...base, id: number, name } : { kind, ...base, iid: number, name };
  }
  return null;
}
