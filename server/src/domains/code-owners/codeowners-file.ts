/**
 * GitLab's CODEOWNERS file, parsed: sections (`[Name]`, optional `^[Name]`, `[Name][N]` approvals,
 * default owners after the heading; names compared without case, repeated sections combined),
 * entries (a path pattern, then owners; `\ ` escapes a space, `\#` a leading hash), exclusions
 * (`!pattern`), and owner references: `@username` or `@group/subgroup` (resolved later, as GitLab
 * resolves a name against users and groups), email addresses, and roles (`@@developer`,
 * `@@maintainer`, `@@owner`). Entries before any heading form the default section, "codeowners".
 * Lines GitLab would report are kept as errors with their line numbers, as its file view shows
 * them; the rest of the file still applies. Pure.
 */

/** Where GitLab looks for the file, in this order; the first one found applies. */
export const CODEOWNERS_PATHS = ['CODEOWNERS', 'docs/CODEOWNERS', '.gitlab/CODEOWNERS'] as const;
/** The name of the section of entries that come before any heading (GitLab's). */
export const DEFAULT_SECTION = 'codeowners';
/** A larger file is not read (GitLab reads CODEOWNERS like any blob it shows, with a size limit). */
export const MAX_CODEOWNERS_BYTES = 1024 * 1024;

export type OwnerRole = 'developer' | 'maintainer' | 'owner';

export type OwnerReference = { kind: 'name'; name: string } | { kind: 'email'; email: string } | { kind: 'role'; role: OwnerRole };

export interface CodeOwnersEntry {
  /** as written (without the `!` of an exclusion), for the approval rule's name */
  pattern: string;
  /** the pattern made absolute, as GitLab normalizes it before matching */
  normalized: string;
  exclusion: boolean;
  /** the entry's owners, or the section's default owners when it names none */
  owners: OwnerReference[];
  line: number;
}

export interface CodeOwnersSection {
  name: string;
  optional: boolean;
  /** approvals required from the owners of a matching entry (1 unless `[Name][N]`) */
  approvalsRequired: number;
  defaultOwners: OwnerReference[];
  entries: CodeOwnersEntry[];
}

export type CodeOwnersErrorKind =
  | 'invalid_section_format'
  | 'missing_section_name'
  | 'invalid_approval_requirement'
  | 'invalid_section_owner_format'
  | 'malformed_entry_owner'
  | 'missing_entry_owner';

export interface CodeOwnersError {
  kind: CodeOwnersErrorKind;
  line: number;
}

/** The owners written on one line (a heading's default owners, or an entry's own), for the owner checks. */
export interface CodeOwnersLine {
  line: number;
  owners: OwnerReference[];
}

export interface CodeOwnersFile {
  sections: CodeOwnersSection[];
  errors: CodeOwnersError[];
  /** every line that names owners, in file order */
  ownerLines: CodeOwnersLine[];
}

const ROLES: Record<string, OwnerRole> = { developer: 'developer', developers: 'developer', maintainer: 'maintainer', maintainers: 'maintainer', owner: 'owner', owners: 'owner' };
const NAME = /^@([A-Za-z0-9_][A-Za-z0-9_.\-+]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.\-+]*)*)$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const HEADING = /^(\^)?\[([^\]]*)\](?:\[([^\]]*)\])?(.*)$/;

/** One owner word: a reference, or null when GitLab would call it malformed. */
export function parseOwner(word: string): OwnerReference | null {
  if (word.startsWith('@@')) {
    const role = ROLES[word.slice(2).toLowerCase()];
    return role ? { kind: 'role', role } : null;
  }
  const name = NAME.exec(word);
  if (name) return { kind: 'name', name: name[1]! };
  return EMAIL.test(word) ? { kind: 'email', email: word } : null;
}

/** GitLab's pattern normalization: `*` is every file; a relative pattern matches at any depth; a trailing `/` is everything below. */
export function normalizePattern(pattern: string): string {
  if (pattern === '*') return '/**/*';
  let normalized = pattern.startsWith('/') ? pattern : `/**/${pattern}`;
  if (normalized.endsWith('/')) normalized = `${normalized}**/*`;
  return normalized;
}

/** Splits an entry line at its first unescaped whitespace: the pattern (unescaped) and the owner words. */
function splitEntry(line: string): { pattern: string; owners: string[] } {
  let end = 0;
  while (end < line.length && !(/\s/.test(line[end]!) && line[end - 1] !== '\\')) end++;
  const raw = line.slice(0, end);
  const pattern = raw.replace(/^\\#/, '#').replace(/\\(\s)/g, '$1');
  const owners = line.slice(end).trim().split(/\s+/).filter((word) => word !== '');
  return { pattern, owners };
}

function ownersOf(words: readonly string[], line: number, kind: CodeOwnersErrorKind, errors: CodeOwnersError[]): OwnerReference[] {
  const owners: OwnerReference[] = [];
  let malformed = false;
  for (const word of words) {
    const owner = parseOwner(word);
    if (owner) owners.push(owner);
    else malformed = true;
  }
  if (malformed) errors.push({ kind, line });
  return owners;
}

export function parseCodeOwners(text: string): CodeOwnersFile {
  const errors: CodeOwnersError[] = [];
  const ownerLines: CodeOwnersLine[] = [];
  const sections = new Map<string, CodeOwnersSection>();
  const sectionFor = (name: string, attrs: Omit<CodeOwnersSection, 'name' | 'entries'>) => {
    const key = name.toLowerCase();
    const existing = sections.get(key);
    if (existing) {
      // a repeated heading adds to the first one (its name, optionality and approvals stand)
      if (existing.defaultOwners.length === 0) existing.defaultOwners = attrs.defaultOwners;
      return existing;
    }
    const created: CodeOwnersSection = { name, entries: [], ...attrs };
    sections.set(key, created);
    return created;
  };
  let current = sectionFor(DEFAULT_SECTION, { optional: false, approvalsRequired: 1, defaultOwners: [] });

  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const number = index + 1;
    const line = lines[index]!.trim();
    if (line === '' || line.startsWith('#')) continue;

    if (line.startsWith('[') || line.startsWith('^[')) {
      const heading = HEADING.exec(line);
      if (!heading) {
        errors.push({ kind: 'invalid_section_format', line: number });
        continue;
      }
      const [, caret, rawName, rawApprovals, rest] = heading;
      const name = rawName!.trim();
      if (name === '') {
        errors.push({ kind: 'missing_section_name', line: number });
        continue;
      }
      let approvalsRequired = 1;
      if (rawApprovals !== undefined) {
        const count = /^\d+$/.test(rawApprovals) ? Number(rawApprovals) : 0;
        if (count < 1) errors.push({ kind: 'invalid_approval_requirement', line: number });
        else approvalsRequired = count;
      }
      const words = rest!.trim().split(/\s+/).filter((word) => word !== '');
      const defaultOwners = ownersOf(words, number, 'invalid_section_owner_format', errors);
      if (defaultOwners.length > 0) ownerLines.push({ line: number, owners: defaultOwners });
      current = sectionFor(name, { optional: caret === '^', approvalsRequired, defaultOwners });
      continue;
    }

    const exclusion = line.startsWith('!');
    const { pattern, owners: words } = splitEntry(exclusion ? line.slice(1) : line);
    if (pattern === '') continue;
    // an exclusion names no owners; whatever follows it is not checked
    const owners = exclusion ? [] : ownersOf(words, number, 'malformed_entry_owner', errors);
    if (owners.length > 0) ownerLines.push({ line: number, owners });
    const effective = owners.length > 0 || exclusion ? owners : current.defaultOwners;
    if (!exclusion && effective.length === 0 && words.length === 0 && !current.optional) errors.push({ kind: 'missing_entry_owner', line: number });
    current.entries.push({ pattern, normalized: normalizePattern(pattern), exclusion, owners: effective, line: number });
  }

  return { sections: [...sections.values()].filter((section) => section.entries.length > 0), errors, ownerLines };
}
