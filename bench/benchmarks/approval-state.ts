import pg from 'pg';
import type { Cleanup } from '../lib/cleanup.js';
import { benchDatabase } from '../lib/postgres.js';
import { formatMs, formatRatio, formatSamples, median } from '../lib/stats.js';
import type { Row } from '../lib/table.js';
import { rawSqlSamples, samplesOf, timedGet } from '../lib/timing.js';
import { api, createRootToken, startTributary } from '../lib/tributary.js';
import { ROOT_PASSWORD, verdict, type BenchResult } from './common.js';

/** 20 code owner rules (CODEOWNERS entries the change matches), 10 owners each: 200 eligible approvers. */
const RULES = 20;
const OWNERS_PER_RULE = 10;
/** Changed files, spread over the 20 owned directories. */
const FILES = 1_000;
/** CODEOWNERS entries in all (the other 980 own directories the change does not touch). */
const ENTRIES = 1_000;
/** Owners who approved (half of each rule's). */
const APPROVED_PER_RULE = 5;
const TARGET_MS = 50;
const SAMPLES = 15;

/** 200 active users, Developers of the project, seeded by SQL (the API would take minutes). */
async function seedOwners(url: string, projectId: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `WITH made AS (
         INSERT INTO users (username, name, email) SELECT 'owner-' || i, 'Owner ' || i, 'owner-' || i || '@bench.test' FROM generate_series(0, $1 - 1) AS i RETURNING id)
       INSERT INTO project_members (project_id, user_id, access_level) SELECT $2, id, 30 FROM made`,
      [RULES * OWNERS_PER_RULE, projectId],
    );
    await client.query('ANALYZE users');
    await client.query('ANALYZE project_members');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Half of each rule's owners approve, straight into the table the approve call writes. */
async function seedApprovals(url: string, mergeRequestId: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO merge_request_approvals (merge_request_id, user_id) SELECT $1, u.id FROM users u
        WHERE u.username LIKE 'owner-%' AND (substring(u.username from 7)::int % $2) < $3`,
      [mergeRequestId, OWNERS_PER_RULE, APPROVED_PER_RULE],
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The same rows through node-postgres: the changed paths, the owners with their access, the approvals. */
async function rawSql(url: string, projectId: number, mergeRequestId: number): Promise<number[]> {
  return rawSqlSamples(url, SAMPLES, async (client) => {
    await client.query('SELECT f.old_path, f.new_path FROM merge_requests m JOIN merge_request_diff_files f ON f.merge_request_diff_id = m.latest_diff_id WHERE m.id = $1', [mergeRequestId]);
    await client.query(
      `SELECT u.id, u.username, m.access_level FROM users u JOIN project_members m ON m.user_id = u.id AND m.project_id = $1 WHERE lower(u.username) = ANY($2::text[])`,
      [projectId, Array.from({ length: RULES * OWNERS_PER_RULE }, (_, i) => `owner-${i}`)],
    );
    await client.query('SELECT user_id, sha, created_at FROM merge_request_approvals WHERE merge_request_id = $1', [mergeRequestId]);
  });
}

/**
 * The approval state of a merge request whose 1,000 changed files match 20 entries of a
 * 1,000-entry CODEOWNERS (20 code owner rules, 200 eligible approvers, 100 approvals), on
 * PostgreSQL, through `GET …/approval_state`, beside raw SQL reading the same rows.
 */
export async function benchApprovalState(cleanup: Cleanup): Promise<BenchResult> {
  const dir = cleanup.tempDir('trb-approval-state-');
  const database = await benchDatabase(cleanup);
  const server = await startTributary(cleanup, { name: 'tributary (approval state)', dataDir: dir, databaseUrl: database.url, rootPassword: ROOT_PASSWORD });
  const token = await createRootToken(server);
  const project = await api<{ id: number }>(server, token, 'POST', '/projects', { name: 'bench-owners', path: 'bench-owners', initialize_with_readme: true });
  await seedOwners(database.url, project.id);

  const owners = (rule: number) => Array.from({ length: OWNERS_PER_RULE }, (_, k) => `@owner-${rule * OWNERS_PER_RULE + k}`).join(' ');
  const lines = ['# 1,000 entries; the change below touches the first 20 directories'];
  for (let entry = 0; entry < ENTRIES; entry++) lines.push(`/src/area-${entry}/ ${owners(entry % RULES)}`);
  await api(server, token, 'POST', `/projects/${project.id}/repository/files/CODEOWNERS`, { branch: 'main', content: `${lines.join('\n')}\n`, commit_message: 'CODEOWNERS' });
  await api(server, token, 'POST', `/projects/${project.id}/protected_branches`, { name: 'main', code_owner_approval_required: true }).catch(() =>
    api(server, token, 'PATCH', `/projects/${project.id}/protected_branches/main`, { code_owner_approval_required: true }),
  );
  const actions = Array.from({ length: FILES }, (_, i) => ({ action: 'create', file_path: `src/area-${i % RULES}/file-${i}.txt`, content: `file ${i}\n` }));
  await api(server, token, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'topic', start_branch: 'main', commit_message: '1,000 owned files', actions });
  const mr = await api<{ id: number; iid: number }>(server, token, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Owned files' });
  const path = `/projects/${project.id}/merge_requests/${mr.iid}`;
  for (let tries = 0; tries < 600; tries++) {
    const versions = await api<unknown[]>(server, token, 'GET', `${path}/versions`);
    if (versions.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await seedApprovals(database.url, mr.id);

  const url = `${server.url}/api/v4${path}/approval_state`;
  const check = (body: any) => {
    const rules = (body.rules as Array<{ rule_type: string; eligible_approvers: unknown[] }>).filter((rule) => rule.rule_type === 'code_owner');
    const eligible = new Set(rules.flatMap((rule) => rule.eligible_approvers.map((user: any) => user.id)));
    if (rules.length !== RULES || eligible.size !== RULES * OWNERS_PER_RULE) throw new Error(`approval_state had ${rules.length} code owner rules and ${eligible.size} eligible approvers`);
  };
  const first = await timedGet(url, token); // the first read parses CODEOWNERS and compiles it (then cached per commit)
  check(first.body);
  const samples = await samplesOf(SAMPLES, () => timedGet(url, token));
  const raw = await rawSql(database.url, project.id, mr.id);
  const ours = median(samples);
  const rawMedian = median(raw);
  const row: Row = {
    benchmark: `Approval state: ${RULES} code owner rules, ${RULES * OWNERS_PER_RULE} eligible approvers, ${FILES.toLocaleString('en')} files against a ${ENTRIES.toLocaleString('en')}-entry CODEOWNERS (median of ${SAMPLES})`,
    tributary: formatMs(ours),
    baseline: `raw SQL ${formatMs(rawMedian)}`,
    ratio: formatRatio(ours / rawMedian),
    target: `< ${TARGET_MS} ms`,
    verdict: verdict(ours < TARGET_MS),
  };
  return {
    rows: [row],
    notes: [
      `Approval state: Tributary on ${database.description}; GET …/approval_state timed to the last byte (reads the target branch tip, the cached CODEOWNERS, the 1,000 changed paths, resolves the owners in one query per kind, the settings, the approvals, the eligibility of 200 users); first (uncached) read ${formatMs(first.ms)}; samples (ms): ${formatSamples(samples)}. Raw SQL (the changed paths, the 200 owners with their membership, the approvals: three queries through node-postgres): ${formatSamples(raw)}.`,
    ],
  };
}
