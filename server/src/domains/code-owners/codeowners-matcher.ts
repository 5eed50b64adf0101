/**
 * Which CODEOWNERS entries own a path, as GitLab decides: the path is matched from the root
 * (`/path`) with Ruby's fnmatch and FNM_DOTMATCH | FNM_PATHNAME (`*` stays in one directory and
 * matches dot files, `**\/` spans directories, braces are literal); in each section the last
 * matching entry wins, and a matching exclusion (`!pattern`) leaves the path unowned in that
 * section whatever its order. Patterns are compiled once, to a linear-time engine. Pure.
 */
import { fnmatchToRegex } from '../pipelines/config/glob.js';
import type { CodeOwnersEntry, CodeOwnersFile, CodeOwnersSection } from './codeowners-file.js';

export interface OwningEntry {
  section: CodeOwnersSection;
  entry: CodeOwnersEntry;
}

/** An entry with the paths it owns: GitLab makes one code owner approval rule of each. */
export interface MatchedEntry extends OwningEntry {
  paths: string[];
}

const WILDCARD = /[*?[\\]/;
const literal = (text: string) => !WILDCARD.test(text);

/**
 * The shapes nearly every CODEOWNERS entry takes, tested with string operations instead of a
 * regular expression (compiling one costs about a millisecond; a 1,000-entry file would spend a
 * second on it): a file (`/README`), every file (`*`), a name at any depth (`README.md`,
 * `ee/docs`), an extension (`*.rb`), a directory from the root (`/docs/`) or at any depth
 * (`lib/`), a directory's direct files (`/docs/*`). Null for any other pattern. Pure.
 */
export function literalMatcher(normalized: string): ((rooted: string) => boolean) | null {
  if (literal(normalized)) return (rooted) => rooted === normalized;
  if (normalized === '/**/*') return () => true;
  if (normalized.startsWith('/**/')) {
    const rest = normalized.slice(4);
    if (literal(rest)) return (rooted) => rooted === `/${rest}` || rooted.endsWith(`/${rest}`);
    if (rest.startsWith('*') && literal(rest.slice(1)) && !rest.includes('/')) {
      const suffix = rest.slice(1);
      return (rooted) => rooted.endsWith(suffix);
    }
    if (rest.endsWith('/**/*') && literal(rest.slice(0, -5))) {
      const directory = `/${rest.slice(0, -5)}/`;
      return (rooted) => rooted.includes(directory);
    }
    return null;
  }
  if (normalized.endsWith('/**/*') && literal(normalized.slice(0, -4))) {
    const directory = normalized.slice(0, -4);
    return (rooted) => rooted.length > directory.length && rooted.startsWith(directory);
  }
  if (normalized.endsWith('/*') && literal(normalized.slice(0, -1))) {
    const directory = normalized.slice(0, -1);
    return (rooted) => rooted.length > directory.length && rooted.startsWith(directory) && !rooted.includes('/', directory.length);
  }
  return null;
}

/** Compiled patterns, shared by every matcher: a project's file is matched again on each merge request. */
const compiledPatterns = new Map<string, (rooted: string) => boolean>();
const MAX_COMPILED = 10_000;

function compile(normalized: string): (rooted: string) => boolean {
  let test = compiledPatterns.get(normalized);
  if (!test) {
    const fast = literalMatcher(normalized);
    if (fast) test = fast;
    else {
      const regex = fnmatchToRegex(normalized, { extglob: false });
      test = regex ? (rooted) => regex.matches(rooted) : () => false;
    }
    if (compiledPatterns.size >= MAX_COMPILED) compiledPatterns.delete(compiledPatterns.keys().next().value!);
    compiledPatterns.set(normalized, test);
  }
  return test;
}

export function createCodeOwnersMatcher(file: CodeOwnersFile) {
  const tests = new Map(file.sections.flatMap((section) => section.entries.map((entry) => [entry, compile(entry.normalized)] as const)));
  const matches = (entry: CodeOwnersEntry, rooted: string) => tests.get(entry)!(rooted);

  function entriesFor(path: string): OwningEntry[] {
    const rooted = `/${path.replace(/^\/+/, '')}`;
    const owning: OwningEntry[] = [];
    for (const section of file.sections) {
      let last: CodeOwnersEntry | null = null;
      let excluded = false;
      for (const entry of section.entries) {
        if (!matches(entry, rooted)) continue;
        if (entry.exclusion) {
          excluded = true;
          break;
        }
        last = entry;
      }
      if (!excluded && last) owning.push({ section, entry: last });
    }
    return owning;
  }

  return {
    entriesFor,
    /** The entries owning any of these paths, each with the paths it owns, in the file's order. */
    match(paths: readonly string[]): MatchedEntry[] {
      const byEntry = new Map<CodeOwnersEntry, MatchedEntry>();
      for (const path of paths) {
        for (const { section, entry } of entriesFor(path)) {
          const matched = byEntry.get(entry);
          if (matched) matched.paths.push(path);
          else byEntry.set(entry, { section, entry, paths: [path] });
        }
      }
      const order = new Map(file.sections.flatMap((section, s) => section.entries.map((entry, e) => [entry, s * 1e6 + e] as const)));
      return [...byEntry.values()].sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
    },
  };
}

export type CodeOwnersMatcher = ReturnType<typeof createCodeOwnersMatcher>;
