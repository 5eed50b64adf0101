/**
 * A job's `coverage` keyword applied to its log (GitLab's Ci::Trace#extract_coverage): lines are
 * read from the end, the first line the pattern matches gives the coverage: the last group of the
 * match (the whole match without groups), then the first number in it. The pattern runs on RE2
 * (compilePattern), linear in the log whatever the pattern. ANSI colour codes are left out first.
 * The pattern is `/…/flags` or, as the job stores it (GitLab's coverage_regex), its source alone.
 */
import { RE2JS } from 're2js';
import { compilePattern } from '../pipelines/config/expression.js';

// ANSI colour and title sequences start with ESC (and titles end with BEL): matching them is the point.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;
const NUMBER = /\d+(\.\d+)?/;

/** The coverage the log shows, or null when the pattern is invalid or matches nothing. */
export function extractCoverage(log: string, pattern: string): number | null {
  const regex = compilePattern(pattern) ?? compileSource(pattern);
  if (!regex) return null;
  const lines = log.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(ANSI, '').replace(/\r$/, '');
    const matcher = regex.matcher(line);
    let last: string | null = null;
    while (matcher.find()) {
      const groups = matcher.groupCount();
      // Ruby's String#scan: the groups of each match (flattened), or the match itself without groups
      last = groups > 0 ? (matcher.group(groups) ?? last) : matcher.group();
    }
    if (last === null) continue;
    const number = NUMBER.exec(last);
    if (number) return Number(number[0]);
  }
  return null;
}

function compileSource(source: string): RE2JS | null {
  try {
    return RE2JS.compile(source);
  } catch {
    return null;
  }
}
