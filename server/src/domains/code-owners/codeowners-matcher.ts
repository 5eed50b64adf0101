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

/**
 * A section's entries, indexed: entries naming a file from the root (`/README`) or a directory
 * from the root (`/docs/`) are found by the path and its ancestor directories in a map; only the
 * others are tested one by one. A 1,000-entry file of directories then costs a few lookups per
 * path instead of a thousand tests.
 */
interface IndexedSection {
  section: CodeOwnersSection;
  tests: Array<(rooted: string) => boolean>;
  byFile: Map<string, number[]>;
  byDirectory: Map<string, number[]>;
  others: number[];
}

function indexSection(section: CodeOwnersSection): IndexedSection {
  const indexed: IndexedSection = { section, tests: [], byFile: new Map(), byDirectory: new Map(), others: [] };
  const add = (map: Map<string, number[]>, key: string, index: number) => map.set(key, [...(map.get(key) ?? []), index]);
  section.entries.forEach((entry, index) => {
    indexed.tests.push(compile(entry.normalized));
    const normalized = entry.normalized;
    if (literal(normalized)) add(indexed.byFile, normalized, index);
    else if (!normalized.startsWith('/**/') && normalized.endsWith('/**/*') && literal(normalized.slice(0, -4))) add(indexed.byDirectory, normalized.slice(0, -4), index);
    else indexed.others.push(index);
  });
  return indexed;
}

export function createCodeOwnersMatcher(file: CodeOwnersFile) {
  const sections = file.sections.map(indexSection);

  function entriesFor(path: string): OwningEntry[] {
    const rooted = `/${path.replace(/^\/+/, '')}`;
    const directories: string[] = [];
    for (let slash = rooted.indexOf('/', 1); slash !== -1; slash = rooted.indexOf('/', slash + 1)) directories.push(rooted.slice(0, slash + 1));
    const owning: OwningEntry[] = [];
    for (const { section, tests, byFile, byDirectory, others } of sections) {
      // in a section the last matching entry wins, and any matching exclusion leaves the path unowned
      let last = -1;
      let excluded = false;
      const consider = (index: number) => {
        if (section.entries[index]!.exclusion) excluded = true;
        else if (index > last) last = index;
      };
      for (const index of byFile.get(rooted) ?? []) consider(index);
      for (const directory of directories) for (const index of byDirectory.get(directory) ?? []) consider(index);
      for (const index of others) if (tests[index]!(rooted)) consider(index);
      if (!excluded && last >= 0) owning.push({ section, entry: section.entries[last]! });
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
