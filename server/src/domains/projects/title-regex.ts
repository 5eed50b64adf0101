/**
 * The project's merge request title pattern (GitLab's `merge_request_title_regex`, checked by
 * TITLE_REGEX). A Maintainer writes it and every merge request title is matched against it,
 * so it runs on RE2 (re2js): linear time whatever the pattern, where a backtracking RegExp
 * could be made to hang the server with a pattern like `(a+)+$` (see docs/security.md, "no
 * ReDoS on user patterns"). GitLab uses RE2 for it too (Gitlab::UntrustedRegexp). Pure.
 */
import { RE2JS } from 're2js';

/** Longest pattern and description a project may store. */
export const MAX_TITLE_REGEX_LENGTH = 255;

export type TitlePattern = RE2JS;

/** The compiled pattern, or the reason RE2 refuses it. */
export function compileTitleRegex(source: string): { pattern: TitlePattern } | { error: string } {
  try {
    return { pattern: RE2JS.compile(source) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** GitLab matches anywhere in the title (Ruby's `Regexp#===`), not the whole title. */
export function titleMatches(pattern: TitlePattern, title: string): boolean {
  return pattern.test(title);
}

/**
 * The same linear-time engine for every other pattern users write (push rules): compile once
 * with RE2's flags, then test. `multiline` makes ^ and $ match at line ends (GitLab's
 * UntrustedRegexp with multiline: true, used for commit messages).
 */
export function compileUntrustedRegex(source: string, options: { multiline?: boolean } = {}): { pattern: RE2JS } | { error: string } {
  try {
    return { pattern: RE2JS.compile(source, options.multiline ? RE2JS.MULTILINE : 0) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
