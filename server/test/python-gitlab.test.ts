import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { startTestServer, type TestServer } from '../src/test-support/server.js';

/**
 * The API against a client we did not write: Debian's python3-gitlab (3.12, Debian 12's) runs
 * calls for users, groups, projects, the repository, branches, tags, merge requests and notes
 * (`python-gitlab/calls.py`). python-gitlab checks what GitLab's clients check: the exact JSON
 * Content-Type, status codes, field names. Debian's own Python is asked for by path, since the
 * `python3` on PATH may be another one without the package (`.ci/run` installs python3-gitlab).
 */
const PYTHON = process.env.TRIBUTARY_TEST_PYTHON ?? '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./python-gitlab/calls.py', import.meta.url));

function runPython(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, [SCRIPT], { env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as NodeJS.ErrnoException & { code?: unknown }).code ?? 1) || 1 : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!existsSync(PYTHON))(`python-gitlab against Tributary (${testDatabaseKind()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('runs users, groups, projects, repository, branches, tags, merge requests and notes calls', async () => {
    const run = await runPython({ TRIBUTARY_URL: server.url, TRIBUTARY_TOKEN: server.root.token, TRIBUTARY_SUFFIX: `${process.pid}` });
    expect(run.stderr, run.stderr).toBe('');
    expect(run.code).toBe(0);
    const seen = JSON.parse(run.stdout);
    const suffix = `${process.pid}`;
    expect(seen).toMatchObject({
      user: 'root',
      user_found: [`alice-${suffix}`],
      user_get: 'Alice',
      blocked_state: 'blocked',
      unblocked_state: 'active',
      group_get: `py-${suffix}`,
      subgroups: [`py-${suffix}/sub`],
      descendants: [`py-${suffix}/sub`],
      group_description: 'changed by python-gitlab',
      project_path: `py-${suffix}/py-project`,
      project_description: 'edited',
      group_projects: ['py-project'],
      member_projects: [`py-${suffix}/py-project`],
      members: [`alice-${suffix}`],
      tree: ['README.md'],
      readme_has_name: true,
      commit_titles: ['Add hello', 'Initial commit'],
      commit_get: 'Add hello',
      commit_diff_paths: ['src/hello.txt'],
      compare_commits: 1,
      blame_lines: ['hello'],
      blob_raw: 'hello\n',
      archive_magic: 'PK',
      contributors: [2],
      commit_refs: [['branch', 'main']],
      branches: ['feature', 'main'],
      branch_get: 'feature',
      branches_after_delete: ['feature', 'main'],
      tag_created: ['v1.0', 'First release'],
      tags: ['v1.0'],
      tags_after_delete: ['v1.0'],
      mr_iid: 1,
      mr_list: ['Greet the world'],
      mr_description: 'Please review',
      mr_commits: ['Greet the world'],
      mr_changes: ['src/hello.txt'],
      note_body: 'Looks good',
      notes: ['Looks very good'],
      discussion_notes: ['A thread'],
      notes_after_delete: ['A thread'],
      merged_state: 'merged',
      main_has_greeting: 'hello, world\n',
      deleted_mr: 404,
      missing_project: 404,
      users_after_delete: [],
    });
    expect(seen.python_gitlab).toMatch(/^\d+\.\d+/);
  });
});
