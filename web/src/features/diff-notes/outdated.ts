/**
 * An outdated diff thread in the Activity section: GitLab's header for a diff thread
 * (noteable_discussion.vue's actionText) and the lines of the change that made it outdated as
 * `GET {outdated_line_change_path}` answers them (GitLab's OutdatedDiscussionDiffLinesService),
 * turned into rows of a small diff. Pure.
 */
import type { DiscussionEntity } from '../notes';
import { discussionPosition, isOutdated } from './threads';

/** One line of `GET {outdated_line_change_path}`. */
export interface OutdatedLine {
  line_code: string;
  type: 'new' | 'old' | null;
  old_line: number | null;
  new_line: number | null;
  /** the diff line as git prints it, marker included */
  text: string;
  rich_text: string;
}

export interface OutdatedRow {
  key: string;
  kind: 'added' | 'removed' | 'context';
  marker: '+' | '-' | ' ';
  oldLine: number | null;
  newLine: number | null;
  /** the line without its marker, shown as text (never as HTML) */
  content: string;
}

/** GitLab's action text after the author's name, or null for a thread not on the diff. */
export function diffThreadAction(discussion: DiscussionEntity): string | null {
  if (!discussionPosition(discussion)) return null;
  return isOutdated(discussion) ? 'started a thread on an old version of the diff' : 'started a thread on the diff';
}

/** The note whose `outdated_line_change_path` names the thread's changed lines (GitLab puts it on each note). */
export function outdatedLinesPath(discussion: DiscussionEntity): string | null {
  for (const note of discussion.notes) {
    const path = (note as { outdated_line_change_path?: unknown }).outdated_line_change_path;
    // only a path of this site: the answer is fetched with the session cookie
    if (typeof path === 'string' && path.startsWith('/') && !path.startsWith('//')) return path;
  }
  return null;
}

export function outdatedRows(lines: readonly OutdatedLine[]): OutdatedRow[] {
  return lines.map((line, index) => {
    const kind = line.type === 'new' ? 'added' : line.type === 'old' ? 'removed' : 'context';
    const first = line.text.charAt(0);
    const content = first === '+' || first === '-' || first === ' ' ? line.text.slice(1) : line.text;
    return {
      // a line changed twice in one diff can repeat a line code
      key: `${line.line_code}:${index}`,
      kind,
      marker: kind === 'added' ? '+' : kind === 'removed' ? '-' : ' ',
      oldLine: line.old_line,
      newLine: line.new_line,
      content,
    };
  });
}
