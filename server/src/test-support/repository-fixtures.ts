import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../platform/config.js';
import { gitbeakerClient, startTestServer, type TestServer, type TestUser } from './server.js';

const run = promisify(execFile);

/**
 * Fixtures for the repository API tests (routes/repository/*.int.test.ts): a
 * running server, projects with a first commit, members at a given role,
 * plain HTTP calls (for status codes and headers gitbeaker hides), and the
 * stock git client run directly in a project's bare repository to build
 * states the API would refuse (odd branch names, symlinks).
 */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  raw: Buffer;
}

export interface RepositoryFixtures {
  server: TestServer;
  root: ReturnType<typeof gitbeakerClient>;
  /** Calls /api/v4<path> with a token (root's by default); JSON bodies are parsed. */
  call<T = any>(method: string, path: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** A project owned by root with README.md committed on `main`. */
  createProject(name: string, options?: { visibility?: 'private' | 'internal' | 'public' }): Promise<{ id: number; path_with_namespace: string }>;
  /** A new user who is a member of the project with `accessLevel`. */
  member(projectId: number, accessLevel: 10 | 20 | 30 | 40 | 50): Promise<TestUser>;
  repoPath(projectId: number): string;
  /** The stock git client in the project's bare repository (fixtures and assertions only). */
  bareGit(projectId: number, args: string[], options?: { input?: string; env?: Record<string, string> }): Promise<string>;
  close(): Promise<void>;
}

const GIT_ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C', HOME: '/nonexistent' };

export async function startRepositoryFixtures(options: { config?: Partial<Config> } = {}): Promise<RepositoryFixtures> {
  const server = await startTestServer(options.config ? { config: options.config } : {});
  const root = gitbeakerClient(server.url, server.root.token);

  const fixtures: RepositoryFixtures = {
    server,
    root,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const token = options.token === undefined ? server.root.token : options.token;
      if (token) headers['private-token'] = token;
      let body: string | undefined;
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const response = await fetch(`${server.url}/api/v4${path}`, { method, headers, body });
      const raw = Buffer.from(await response.arrayBuffer());
      const type = response.headers.get('content-type') ?? '';
      const parsed = type.startsWith('application/json') && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw.toString('utf8');
      return { status: response.status, headers: response.headers, body: parsed, raw };
    },
    async createProject(name, options = {}) {
      const project = await root.Projects.create({ name, initializeWithReadme: true, visibility: options.visibility ?? 'private' });
      return { id: project.id as number, path_with_namespace: project.path_with_namespace as string };
    },
    async member(projectId, accessLevel) {
      const user = await server.createUser();
      await root.ProjectMembers.add(projectId, accessLevel, { userId: user.id });
      return user;
    },
    repoPath: (projectId) => server.app.services.storage.pathFor(projectId),
    async bareGit(projectId, args, options = {}) {
      const child = run('git', [`--git-dir=${fixtures.repoPath(projectId)}`, ...args], { env: { ...GIT_ENV, ...options.env }, encoding: 'utf8' });
      // git may exit before reading stdin; that EPIPE is not the failure to report.
      child.child.stdin?.on('error', () => undefined);
      child.child.stdin?.end(options.input ?? '');
      const { stdout } = await child;
      return stdout.trim();
    },
    close: () => server.close(),
  };
  return fixtures;
}

/** Adds a symlink `path` → `target` on top of `branch`, straight in the bare repository. */
export async function commitSymlink(fixtures: RepositoryFixtures, projectId: number, branch: string, path: string, target: string): Promise<string> {
  const git = (args: string[], options?: { input?: string; env?: Record<string, string> }) => fixtures.bareGit(projectId, args, options);
  const index = `/tmp/tributary-fixture-index-${process.pid}-${Date.now()}`;
  const env = { GIT_INDEX_FILE: index, GIT_AUTHOR_NAME: 'Fixture', GIT_AUTHOR_EMAIL: 'fixture@example.com', GIT_COMMITTER_NAME: 'Fixture', GIT_COMMITTER_EMAIL: 'fixture@example.com' };
  const old = await git(['rev-parse', `refs/heads/${branch}`]);
  const blob = await git(['hash-object', '-w', '--stdin'], { input: target });
  await git(['read-tree', old], { env });
  await git(['update-index', '--add', '--cacheinfo', `120000,${blob},${path}`], { env });
  const tree = await git(['write-tree'], { env });
  const commit = await git(['commit-tree', tree, '-p', old, '-m', `Add symlink ${path}`], { env });
  await git(['update-ref', `refs/heads/${branch}`, commit, old]);
  await run('rm', ['-f', index]);
  return commit;
}
