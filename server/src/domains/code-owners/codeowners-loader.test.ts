import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCodeOwners } from './codeowners-loader.js';

/** A bare repository with one commit holding `files`: its path and the commit. */
function repositoryWith(files: Record<string, string>): { path: string; commit: string } {
  const root = mkdtempSync(join(tmpdir(), 'codeowners-'));
  const work = join(root, 'work');
  const git = (args: string[], cwd = work) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } }).trim();
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  for (const [file, content] of Object.entries(files)) {
    execFileSync('mkdir', ['-p', join(work, file, '..')]);
    execFileSync('sh', ['-c', 'cat > "$1"', 'sh', join(work, file)], { input: content });
  }
  git(['add', '-A']);
  git(['commit', '-q', '-m', 'files']);
  execFileSync('git', ['clone', '-q', '--bare', work, join(root, 'repo.git')]);
  created.push(root);
  return { path: join(root, 'repo.git'), commit: git(['rev-parse', 'HEAD']) };
}
const created: string[] = [];
afterAll(() => {
  for (const root of created) rmSync(root, { recursive: true, force: true });
});

describe('loadCodeOwners (real git)', () => {
  it('takes the first of CODEOWNERS, docs/CODEOWNERS and .gitlab/CODEOWNERS that exists', async () => {
    const all = repositoryWith({ 'CODEOWNERS': '* @root\n', 'docs/CODEOWNERS': '* @docs\n', '.gitlab/CODEOWNERS': '* @gitlab\n' });
    expect((await loadCodeOwners(all.path, all.commit))?.path).toBe('CODEOWNERS');
    const two = repositoryWith({ 'docs/CODEOWNERS': '* @docs\n', '.gitlab/CODEOWNERS': '* @gitlab\n' });
    const loaded = await loadCodeOwners(two.path, two.commit);
    expect(loaded?.path).toBe('docs/CODEOWNERS');
    expect(loaded?.file.sections[0]?.entries[0]?.owners).toEqual([{ kind: 'name', name: 'docs' }]);
    const gitlab = repositoryWith({ '.gitlab/CODEOWNERS': '* @gitlab\n' });
    expect((await loadCodeOwners(gitlab.path, gitlab.commit))?.path).toBe('.gitlab/CODEOWNERS');
  });

  it('answers none without a file, for a commit that does not exist, and for a file above the limit', async () => {
    const none = repositoryWith({ 'README.md': 'hello\n' });
    expect(await loadCodeOwners(none.path, none.commit)).toBeNull();
    expect(await loadCodeOwners(none.path, 'f'.repeat(40))).toBeNull();
    const huge = repositoryWith({ 'CODEOWNERS': `${'# filler line\n'.repeat(80_000)}* @x\n` });
    expect(await loadCodeOwners(huge.path, huge.commit)).toBeNull();
  });
});
