import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRepositoryFixtures, type RepositoryFixtures } from './repository-fixtures.js';
import { gitCli, type GitCli } from './server.js';

/**
 * Fixtures for the merge request tests (routes/merge-requests/*.int.test.ts), on top of the
 * repository fixtures: commits with any file name, mode or bytes written straight into a
 * project's bare repository (names the API would refuse, symlinks, submodules, invalid
 * UTF-8), branches moved without a push, a git client for real pushes, and polling for
 * the background refresh.
 */
export interface TreeFile {
  /** a string, or bytes for names that are not valid UTF-8 */
  path: string | Buffer;
  /** 100644 by default */
  mode?: '100644' | '100755' | '120000' | '160000';
  /** file content or symlink target; ignored for submodules */
  content?: string | Buffer;
  /** a submodule's commit */
  sha?: string;
}

export interface MergeRequestFixtures extends RepositoryFixtures {
  /** Runs git in the project's bare repository with bytes in and out (fixtures and assertions only). */
  rawGit(projectId: number, args: string[], input?: Buffer | string): Promise<Buffer>;
  /** A commit on top of `parent` (null: a root commit) with these files added or replaced and `remove` deleted. */
  writeCommit(projectId: number, input: { parent: string | null; files?: TreeFile[]; remove?: Array<string | Buffer>; message?: string }): Promise<string>;
  /** Points refs/heads/<branch> at `sha` without a push (no event). */
  setBranch(projectId: number, branch: string, sha: string): Promise<void>;
  tip(projectId: number, branch: string): Promise<string>;
  /** The stock git client signed in as root. */
  rootGit(): GitCli;
  close(): Promise<void>;
}

const GIT_ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  LC_ALL: 'C',
  HOME: '/nonexistent',
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.com',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.com',
};

function runGit(repo: string, args: string[], input?: Buffer | string, env: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [`--git-dir=${repo}`, ...args], { env: { ...GIT_ENV, ...env } });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args.join(' ')} failed (${code}): ${err}`))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

export async function startMergeRequestFixtures(): Promise<MergeRequestFixtures> {
  const base = await startRepositoryFixtures();
  const clients: GitCli[] = [];
  const fixtures: MergeRequestFixtures = {
    ...base,
    rawGit: (projectId, args, input) => runGit(base.repoPath(projectId), args, input),
    async writeCommit(projectId, input) {
      const repo = base.repoPath(projectId);
      const index = join(tmpdir(), `tributary-mr-index-${randomBytes(6).toString('hex')}`);
      const env = { GIT_INDEX_FILE: index };
      try {
        if (input.parent) await runGit(repo, ['read-tree', input.parent], undefined, env);
        const records: Buffer[] = [];
        for (const path of input.remove ?? []) records.push(Buffer.concat([Buffer.from('0 0000000000000000000000000000000000000000\t'), Buffer.from(path), Buffer.from([0])]));
        // Every blob in one hash-object call: many-file fixtures stay fast.
        const files = input.files ?? [];
        const blobs = files.filter((file) => file.mode !== '160000');
        const scratch = mkdtempSync(join(tmpdir(), 'tributary-mr-blobs-'));
        let shas: string[] = [];
        try {
          const paths = blobs.map((file, i) => {
            const path = join(scratch, String(i));
            writeFileSync(path, file.content ?? '');
            return path;
          });
          if (paths.length > 0) shas = (await runGit(repo, ['hash-object', '-w', '--stdin-paths'], paths.join('\n'))).toString().trim().split('\n');
        } finally {
          rmSync(scratch, { recursive: true, force: true });
        }
        for (const file of files) {
          const mode = file.mode ?? '100644';
          const sha = mode === '160000' ? file.sha! : shas[blobs.indexOf(file)]!;
          records.push(Buffer.concat([Buffer.from(`${mode} ${sha}\t`), Buffer.from(file.path), Buffer.from([0])]));
        }
        await runGit(repo, ['update-index', '-z', '--index-info'], Buffer.concat(records), env);
        const tree = (await runGit(repo, ['write-tree'], undefined, env)).toString().trim();
        const parents = input.parent ? ['-p', input.parent] : [];
        return (await runGit(repo, ['commit-tree', tree, ...parents, '-m', input.message ?? 'fixture commit'])).toString().trim();
      } finally {
        rmSync(index, { force: true });
      }
    },
    async setBranch(projectId, branch, sha) {
      await runGit(base.repoPath(projectId), ['update-ref', `refs/heads/${branch}`, sha]);
    },
    async tip(projectId, branch) {
      return (await runGit(base.repoPath(projectId), ['rev-parse', `refs/heads/${branch}`])).toString().trim();
    },
    rootGit() {
      const client = gitCli({ url: base.server.url, username: 'root', password: base.server.root.token });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) await client.close();
      await base.close();
    },
  };
  return fixtures;
}
