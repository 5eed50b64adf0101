import { describe, expect, it } from 'vitest';
import { DEFAULT_SECTION, normalizePattern, parseCodeOwners, parseOwner } from './codeowners-file.js';
import { createCodeOwnersMatcher, literalMatcher } from './codeowners-matcher.js';

/** GitLab's documented example file (Code Owners syntax and error handling). */
const EXAMPLE = String.raw`# This is an example of a CODEOWNERS file.
# Lines that start with # are ignored.

# Specify a default Code Owner by using a wildcard:
* @default-codeowner

# Specify multiple Code Owners by using a tab or space:
* @multiple @code @owners

# Rules defined later in the file take precedence over earlier rules.
*.rb @ruby-owner

# Files with a # can still be accessed by escaping the pound sign:
\#file_with_pound.rb @owner-file-with-pound

# You can use both usernames or email addresses to match users:
LICENSE @legal janedoe@gitlab.com

# Use group names to match groups, and nested groups:
README @group @group/with-nested/subgroup

# Specify Code Owners for directories:
/docs/ @all-docs
/docs/* @root-docs
/docs/**/*.md @root-docs

# Match directories nested anywhere in the repository:
lib/ @lib-owner

# Match only a directory in the root of the repository:
/config/ @config-owner

# If the path contains spaces, escape them like this:
path\ with\ spaces/ @space-owner

# Code Owners sections:
[Documentation]
ee/docs    @docs
docs/      @docs

[Database]
README.md  @database
model/db/  @database

# This section is combined with the previously defined [Documentation] section:
[DOCUMENTATION]
README.md  @docs
`;

const ownerWords = (owners: { kind: string; name?: string; email?: string; role?: string }[]) => owners.map((o) => (o.kind === 'name' ? `@${o.name}` : o.kind === 'email' ? o.email : `@@${o.role}`));

describe('CODEOWNERS: GitLab’s example file', () => {
  const file = parseCodeOwners(EXAMPLE);
  const matcher = createCodeOwnersMatcher(file);
  /** section name → owners of the entry that owns the path there */
  const ownersOf = (path: string) => Object.fromEntries(matcher.entriesFor(path).map(({ section, entry }) => [section.name, ownerWords(entry.owners).join(' ')]));

  it('parses without errors, combining the sections whose names differ only in case', () => {
    expect(file.errors).toEqual([]);
    expect(file.sections.map((s) => [s.name, s.entries.length])).toEqual([
      [DEFAULT_SECTION, 12],
      ['Documentation', 3],
      ['Database', 2],
    ]);
  });

  it.each([
    ['app/models/user.rb', { codeowners: '@ruby-owner' }],
    ['.gitignore', { codeowners: '@multiple @code @owners' }],
    ['#file_with_pound.rb', { codeowners: '@owner-file-with-pound' }],
    ['vendor/LICENSE', { codeowners: '@legal janedoe@gitlab.com' }],
    ['README', { codeowners: '@group @group/with-nested/subgroup' }],
    ['docs/index.md', { codeowners: '@root-docs', Documentation: '@docs' }],
    ['docs/api/users.md', { codeowners: '@root-docs', Documentation: '@docs' }],
    ['docs/api/users.png', { codeowners: '@all-docs', Documentation: '@docs' }],
    ['docs/logo.png', { codeowners: '@root-docs', Documentation: '@docs' }],
    ['ee/docs', { codeowners: '@multiple @code @owners', Documentation: '@docs' }],
    ['app/lib/tasks/x.rb', { codeowners: '@lib-owner' }],
    ['config/database.yml', { codeowners: '@config-owner' }],
    ['app/config/database.yml', { codeowners: '@multiple @code @owners' }],
    ['path with spaces/notes.txt', { codeowners: '@space-owner' }],
    ['README.md', { codeowners: '@multiple @code @owners', Database: '@database', Documentation: '@docs' }],
    ['model/db/schema.rb', { codeowners: '@ruby-owner', Database: '@database' }],
  ])('%s is owned by %o', (path, owners) => {
    expect(ownersOf(path)).toEqual(owners);
  });

  it('groups the changed paths by the entry owning them, in the file’s order (one approval rule each)', () => {
    const matched = matcher.match(['app/a.rb', 'lib/b.rb', 'docs/index.md', 'README.md', 'app/c.rb']);
    expect(matched.map((m) => [m.section.name, m.entry.pattern, m.paths])).toEqual([
      [DEFAULT_SECTION, '*', ['README.md']],
      [DEFAULT_SECTION, '*.rb', ['app/a.rb', 'app/c.rb']],
      [DEFAULT_SECTION, '/docs/**/*.md', ['docs/index.md']],
      [DEFAULT_SECTION, 'lib/', ['lib/b.rb']],
      ['Documentation', 'docs/', ['docs/index.md']],
      ['Documentation', 'README.md', ['README.md']],
      ['Database', 'README.md', ['README.md']],
    ]);
  });
});

describe('CODEOWNERS: sections, exclusions, roles and errors', () => {
  it('reads optional sections, required approvals and default owners an entry inherits', () => {
    const file = parseCodeOwners('[Documentation][2] @docs-team\ndocs/\nREADME.md @tech-writer\n\n^[Database] @database-team\nmodel/db/\n');
    expect(file.errors).toEqual([]);
    const [docs, db] = file.sections;
    expect([docs!.name, docs!.optional, docs!.approvalsRequired]).toEqual(['Documentation', false, 2]);
    expect(docs!.entries.map((e) => [e.pattern, ownerWords(e.owners)])).toEqual([
      ['docs/', ['@docs-team']],
      ['README.md', ['@tech-writer']],
    ]);
    expect([db!.name, db!.optional, db!.approvalsRequired, ownerWords(db!.entries[0]!.owners)]).toEqual(['Database', true, 1, ['@database-team']]);
  });

  it('leaves a path unowned in a section where an exclusion matches it, whatever the order', () => {
    const matcher = createCodeOwnersMatcher(parseCodeOwners('* @group-x\n!*.rb\n\n[Ruby]\n!/config/*\n*.rb @ruby-devs\n'));
    const owners = (path: string) => matcher.entriesFor(path).map(({ section, entry }) => `${section.name}:${ownerWords(entry.owners).join(',')}`);
    expect(owners('app.js')).toEqual(['codeowners:@group-x']);
    expect(owners('app/user.rb')).toEqual(['Ruby:@ruby-devs']);
    expect(owners('config/boot.rb')).toEqual([]);
  });

  it.each([
    // indexed entries (root files and root directories) and tested ones keep the file's order
    ['src/app/main.rb', '@later-ruby'],
    ['src/app/main.js', '@src-app'],
    ['src/other.js', '@src'],
    ['src/private/key.txt', ''],
    ['README', '@readme'],
    ['docs/README', '@any'],
    ['srcfile', '@any'],
  ])('indexed matching: %s is owned by %s', (path, owner) => {
    const matcher = createCodeOwnersMatcher(parseCodeOwners('* @any\n/src/ @src\n/src/app/ @src-app\n*.rb @later-ruby\n/README @readme\n!/src/private/\n'));
    expect(matcher.entriesFor(path).map(({ entry }) => ownerWords(entry.owners).join(',')).join(' ')).toBe(owner);
  });

  it('takes roles as owners', () => {
    expect(parseOwner('@@developer')).toEqual({ kind: 'role', role: 'developer' });
    expect(parseOwner('@@Maintainers')).toEqual({ kind: 'role', role: 'maintainer' });
    expect(parseOwner('@@owner')).toEqual({ kind: 'role', role: 'owner' });
    expect(parseOwner('@@guest')).toBeNull();
    expect(parseOwner('@group/sub.team')).toEqual({ kind: 'name', name: 'group/sub.team' });
    expect(parseOwner('jane@example.com')).toEqual({ kind: 'email', email: 'jane@example.com' });
    expect(parseOwner('jane')).toBeNull();
  });

  it('reports what GitLab reports, by line, and keeps the rest', () => {
    const file = parseCodeOwners(['[Broken', '[]', '[Zero][0]', '[Bad owners] not-an-owner', '*.js @ok plainword', '*.md', '^[Optional]', '*.txt', '!*.lock @ignored plainword'].join('\n'));
    expect(file.errors).toEqual([
      { kind: 'invalid_section_format', line: 1 },
      { kind: 'missing_section_name', line: 2 },
      { kind: 'invalid_approval_requirement', line: 3 },
      { kind: 'invalid_section_owner_format', line: 4 },
      { kind: 'malformed_entry_owner', line: 5 },
      { kind: 'missing_entry_owner', line: 6 },
    ]);
    const bad = file.sections.find((s) => s.name === 'Bad owners')!;
    expect(bad.entries.map((e) => [e.pattern, ownerWords(e.owners)])).toEqual([
      ['*.js', ['@ok']],
      ['*.md', []],
    ]);
  });

  it('normalizes patterns as GitLab does', () => {
    expect(['*', 'README', '/README', 'docs/', '/docs/', '/docs/*', '**/x'].map(normalizePattern)).toEqual(['/**/*', '/**/README', '/README', '/**/docs/**/*', '/docs/**/*', '/docs/*', '/**/**/x']);
  });

  it.each([
    ['/README', ['/README'], ['/docs/README', '/README.md']],
    ['/**/*', ['/a', '/.env', '/a/b/c'], []],
    ['/**/ee/docs', ['/ee/docs', '/x/ee/docs'], ['/ee/docs/a', '/free/docs']],
    ['/**/*.rb', ['/a.rb', '/x/y/.rb'], ['/a.rbx', '/a.rb/x']],
    ['/docs/**/*', ['/docs/a', '/docs/a/b'], ['/docs', '/x/docs/a']],
    ['/**/lib/**/*', ['/lib/a', '/x/lib/a/b'], ['/lib', '/xlib/a']],
    ['/docs/*', ['/docs/a.md', '/docs/.keep'], ['/docs/a/b.md', '/docs']],
  ])('tests %s without a regular expression, as fnmatch would', (pattern, matching, other) => {
    const test = literalMatcher(pattern)!;
    expect(test).not.toBeNull();
    for (const path of matching) expect([path, test(path)]).toEqual([path, true]);
    for (const path of other) expect([path, test(path)]).toEqual([path, false]);
  });

  it('leaves other shapes to the regular expression', () => {
    expect(['/docs/**/*.md', '/a[bc]', '/x/?.md', '/**/*.{js}x*'].map(literalMatcher)).toEqual([null, null, null, null]);
  });

  it('treats braces as literal characters (no extended globs)', () => {
    const matcher = createCodeOwnersMatcher(parseCodeOwners('*.{js,ts} @web\n'));
    expect(matcher.entriesFor('a.js')).toEqual([]);
    expect(matcher.entriesFor('a.{js,ts}')).toHaveLength(1);
  });

  it('matches a 1,000-file change against a 1,000-entry file', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `/src/module${i}/ @team${i % 20}`).join('\n');
    const matcher = createCodeOwnersMatcher(parseCodeOwners(text));
    const paths = Array.from({ length: 1000 }, (_, i) => `src/module${i}/index.ts`);
    const matched = matcher.match(paths);
    expect(matched).toHaveLength(1000);
    expect(matched[999]!.paths).toEqual(['src/module999/index.ts']);
  });
});
