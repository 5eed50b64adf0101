/**
 * Commits as GitLab's API shapes them, and the pure parser of `git log -z` output.
 * Fields are NUL-separated and the message comes last, so subjects and bodies with newlines,
 * tabs or any unicode parse exactly. (A NUL inside a commit message cannot survive git's own
 * formatting, so NUL is a safe separator.)
 */
import { t } from '@tributary/contracts';

export interface GitCommit {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: Date;
  committer_name: string;
  committer_email: string;
  committed_date: Date;
  /** GitLab reports the committer date here. */
  created_at: Date;
  parent_ids: string[];
}

/** The fields of one commit as git prints them, before titles and dates are derived. */
export interface RawCommitFields {
  id: string;
  parents: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

/** `git log -z --format=…`: 9 NUL-separated fields per commit, records ended by NUL. */
export const LOG_FORMAT = '--format=%H%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B';
const LOG_FIELDS = 9;

const SHORT_ID_LENGTH = 8;
const TITLE_MAX = 100;
const TITLE_TRUNCATE_TO = 81;

/**
 * GitLab's Commit#title: the first line of the message; from 100 characters on it is cut at
 * the last space within 80 characters and ends with "…" (Ruby's `truncate(81, separator: ' ')`).
 */
export function commitTitle(message: string): string {
  if (message.trim() === '') return t('No commit message');
  const fullTitle = message.split(/[\r\n]/, 1)[0] ?? '';
  const chars = Array.from(fullTitle);
  if (chars.length < TITLE_MAX) return fullTitle;
  const room = TITLE_TRUNCATE_TO - 1;
  const space = chars.lastIndexOf(' ', room);
  return `${chars.slice(0, space === -1 ? room : space).join('')}…`;
}

export function buildCommit(fields: RawCommitFields): GitCommit {
  const committedDate = new Date(fields.committerDate);
  return {
    id: fields.id,
    short_id: fields.id.slice(0, SHORT_ID_LENGTH),
    title: commitTitle(fields.message),
    message: fields.message,
    author_name: fields.authorName,
    author_email: fields.authorEmail,
    authored_date: new Date(fields.authorDate),
    committer_name: fields.committerName,
    committer_email: fields.committerEmail,
    committed_date: committedDate,
    created_at: committedDate,
    parent_ids: fields.parents === '' ? [] : fields.parents.split(' '),
  };
}

/** Parses the output of `git log -z` with LOG_FORMAT. */
export function parseLogOutput(stdout: Buffer | string): GitCommit[] {
  const text = typeof stdout === 'string' ? stdout : stdout.toString('utf8');
  if (text === '') return [];
  const tokens = text.split('\0');
  const commits: GitCommit[] = [];
  for (let i = 0; i + LOG_FIELDS <= tokens.length; i += LOG_FIELDS) {
    const [id, parents, authorName, authorEmail, authorDate, committerName, committerEmail, committerDate, message] = tokens.slice(i, i + LOG_FIELDS) as [string, string, string, string, string, string, string, string, string];
    commits.push(buildCommit({ id, parents, authorName, authorEmail, authorDate, committerName, committerEmail, committerDate, message }));
  }
  return commits;
}
