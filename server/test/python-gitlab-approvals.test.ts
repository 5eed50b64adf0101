import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../src/test-support/database.js';
import { eventually } from '../src/test-support/eventually.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../src/test-support/merge-request-fixtures.js';

/**
 * The approvals API against python-gitlab (Debian's python3-gitlab): project approval settings,
 * `project.approvalrules.create`, `mr.approvals.get()`, `mr.approve()`, `mr.approval_state.get()`,
 * `mr.unapprove()` (`python-gitlab/approvals.py`).
 */
const PYTHON = process.env.TRIBUTARY_TEST_PYTHON ?? '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./python-gitlab/approvals.py', import.meta.url));

function runPython(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, [SCRIPT], { env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, stdout, stderr });
    });
  });
}

describe.skipIf(!existsSync(PYTHON))(`python-gitlab approvals (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  it('approves, reads the approvals and the state, creates rules, unapproves', async () => {
    const project = await fx.createProject('py-approvals');
    const developer = await fx.member(project.id, 30);
    await fx.root.Commits.create(project.id, 'topic', 'Topic', [{ action: 'create', filePath: 'topic.txt', content: 'topic\n' }], { startBranch: 'main' });
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Python approvals');
    await eventually(async () => (await fx.call('GET', `/projects/${project.id}/merge_requests/${mr.iid}`)).body.detailed_merge_status === 'mergeable');
    const run = await runPython({
      TRIBUTARY_URL: fx.server.url,
      TRIBUTARY_TOKEN: fx.server.root.token,
      TRIBUTARY_PROJECT: project.path_with_namespace,
      TRIBUTARY_DEVELOPER_ID: String(developer.id),
      TRIBUTARY_DEVELOPER_TOKEN: developer.token,
    });
    expect(run.stderr, run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      reset_approvals_on_push: true,
      rule: { name: 'Python', approvals_required: 1, users: [developer.id] },
      rules: ['Python'],
      // the rule was made after the merge request: the project's rules are in force
      before: 1,
      after: { approved: true, approvals_left: 0, approved_by: [developer.id] },
      state_rules: [{ name: 'Python', approved: true }],
      unapproved_left: 1,
    });
  });
});
