/**
 * Artifact uploads are streamed into the object store: an archive larger than any request limit
 * is taken whole while the server's memory (heap and buffers, measured in this process, where the
 * server runs) grows by far less than its size; past the instance's maximum artifacts size
 * (GitLab's max_artifacts_size) the upload is GitLab's 413 and nothing is kept.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { downloadArtifacts, gitlabRunner, send, uploadArtifacts } from './gitlab-runner-wire.js';

const MB = 1024 * 1024;
const CONFIG = 'stages: [build, test]\nbig:\n  stage: build\n  script: [make]\ntoo-big:\n  stage: build\n  script: [make]\nafter:\n  stage: test\n  script: [true]\n';

/** `total` bytes in 64 KiB pieces made as they are sent (the test holds none of them). */
function pieces(total: number, seed: number): () => AsyncIterable<Buffer> {
  return async function* () {
    for (let offset = 0, n = 0; offset < total; offset += 64 * 1024, n++) {
      const piece = Buffer.alloc(Math.min(64 * 1024, total - offset), (seed + n) % 251);
      yield piece;
    }
  };
}

const memory = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

describe(`runner protocol: streamed artifact uploads (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number };
  const jobs = new Map<string, { id: number; token: string }>();

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('big-artifacts');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length === 2);
    const created = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string };
    const runner = gitlabRunner(fx.server.url, created.token, 's_streaming');
    for (let i = 0; i < 2; i++) {
      const job = (await runner.requestJob()).json<{ id: number; token: string; job_info: { name: string } }>();
      jobs.set(job.job_info.name, job);
    }
  });
  afterAll(() => fx?.close());

  it('takes an archive larger than the request limits without holding it in memory', async () => {
    const size = 150 * MB;
    expect((await fx.call('PUT', '/application/settings', { body: { max_artifacts_size: 200 } })).status).toBe(200);
    const job = jobs.get('big')!;
    const baseline = memory();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, memory())), 5);
    try {
      const uploaded = await uploadArtifacts(fx.server.url, job, { baseName: 'artifacts.zip', data: pieces(size, 7) }, { format: 'zip', type: 'archive' });
      expect(uploaded.status).toBe(201);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, memory());
    // the whole archive went through this process; a buffered upload would add at least its size
    expect(peak - baseline).toBeLessThan(size / 2);

    const { rows } = await fx.server.app.db.query<{ size: string }>(`SELECT size FROM ci_job_artifacts WHERE job_id = $1 AND file_type = 'archive'`, [job.id]);
    expect(Number(rows[0]!.size)).toBe(size);
    // the stored bytes are the bytes sent, read back the way the next job downloads them
    expect((await send(fx.server.url, 'PUT', `jobs/${job.id}`, { 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ token: job.token, state: 'success' })))).status).toBe(200);
    const sent = createHash('sha256');
    for await (const piece of pieces(size, 7)()) sent.update(piece);
    const download = await fx.call('GET', `/projects/${project.id}/jobs/${job.id}/artifacts`);
    expect(download.status).toBe(200);
    expect(createHash('sha256').update(download.raw).digest('hex')).toBe(sent.digest('hex'));
  });

  it('answers an archive over max_artifacts_size with GitLab’s 413 and keeps nothing', async () => {
    expect((await fx.call('PUT', '/application/settings', { body: { max_artifacts_size: 1 } })).status).toBe(200);
    const job = jobs.get('too-big')!;
    const refused = await uploadArtifacts(fx.server.url, job, { baseName: 'artifacts.zip', data: pieces(3 * MB, 1) }, { format: 'zip', type: 'archive' });
    expect(refused.status).toBe(413);
    expect(refused.json()).toEqual({ message: 'file size has reached maximum size limit' });
    const authorize = await send(fx.server.url, 'POST', `jobs/${job.id}/artifacts/authorize?artifact_format=zip&artifact_type=archive&filesize=${2 * MB}`, { 'Job-Token': job.token });
    expect(authorize.status).toBe(413);
    const { rows } = await fx.server.app.db.query('SELECT 1 FROM ci_job_artifacts WHERE job_id = $1', [job.id]);
    expect(rows).toEqual([]);
    const objects = await fx.server.app.services.jobArtifacts.objectsOfJob(project.id, job.id);
    expect(objects).toEqual([]);
    // a body without the `file` part: GitLab's 400 for the missing parameter
    const boundary = 'b0123456789';
    const noFile = await send(fx.server.url, 'POST', `jobs/${job.id}/artifacts?artifact_format=zip`, { 'Job-Token': job.token, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="expire_in"\r\n\r\n1 day\r\n--${boundary}--\r\n`));
    expect(noFile.status).toBe(400);
    expect(noFile.json()).toEqual({ message: '400 (Bad request) "file" not given' });
    // within the limit the same job still uploads
    const small = await uploadArtifacts(fx.server.url, job, { baseName: 'artifacts.zip', data: pieces(MB / 2, 1) }, { format: 'zip', type: 'archive' });
    expect(small.status).toBe(201);
    expect((await downloadArtifacts(fx.server.url, job)).status).toBe(200);
  });

  it('drops what it wrote when the runner goes away mid-upload', async () => {
    expect((await fx.call('PUT', '/application/settings', { body: { max_artifacts_size: 100 } })).status).toBe(200);
    const job = jobs.get('too-big')!;
    const before = (await fx.server.app.db.query<{ size: string }>('SELECT size FROM ci_job_artifacts WHERE job_id = $1', [job.id])).rows;
    async function* interrupted(): AsyncIterable<Buffer> {
      yield* pieces(4 * MB, 3)();
      throw new Error('the runner was killed');
    }
    await expect(uploadArtifacts(fx.server.url, job, { baseName: 'artifacts.zip', data: interrupted }, { format: 'zip', type: 'archive' })).rejects.toThrow();
    const temp = join(fx.server.dataDir, 'objects', '.tmp');
    await eventually(async () => !existsSync(temp) || readdirSync(temp).length === 0);
    // the earlier upload stands
    expect((await fx.server.app.db.query<{ size: string }>('SELECT size FROM ci_job_artifacts WHERE job_id = $1', [job.id])).rows).toEqual(before);
    expect(await fx.server.app.services.jobArtifacts.objectsOfJob(project.id, job.id)).toHaveLength(1);
  });
});
