/**
 * Job artifacts as gitlab-runner handles them (network/gitlab.go UploadRawArtifacts and
 * DownloadArtifacts): authorize (413 over the limit), the multipart upload with artifact_format,
 * artifact_type and expire_in, the archive handed to later jobs as `dependencies` and downloaded
 * with their job token; the jobs API's download and delete with their permissions; expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';

const CONFIG = ['stages: [build, test]', 'build:\n  stage: build\n  script: [make]\n  artifacts:\n    paths: [out/]\n    expire_in: 1 week', 'test:\n  stage: test\n  script: [make test]', ''].join('\n');

describe(`runner protocol: artifacts (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let runnerToken: string;
  const archive = Buffer.from('PK\u0003\u0004 not really a zip, but bytes the server keeps as they are');

  const requestJob = async () => {
    const response = await fetch(`${fx.server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'RUNNER-TOKEN': runnerToken },
      body: JSON.stringify({ token: runnerToken, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; token: string; dependencies: unknown[] };
  };
  const upload = (jobId: number, token: string, query = 'artifact_format=zip&artifact_type=archive&expire_in=1+week') => {
    const form = new FormData();
    form.append('file', new Blob([archive]), 'artifacts.zip');
    return fetch(`${fx.server.url}/api/v4/jobs/${jobId}/artifacts?${query}`, { method: 'POST', headers: { 'JOB-TOKEN': token }, body: form });
  };
  const finish = (jobId: number, token: string) =>
    fetch(`${fx.server.url}/api/v4/jobs/${jobId}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'JOB-TOKEN': token }, body: JSON.stringify({ token, state: 'success' }) });

  beforeAll(async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 1 } });
    project = await fx.createProject('artifacts');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    runnerToken = ((await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as { token: string }).token;
  });
  afterAll(() => fx?.close());

  it('uploads, hands the archive to the next stage as a dependency, and serves it', async () => {
    const build = await requestJob();
    const tooBig = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts/authorize?artifact_format=zip&artifact_type=archive&filesize=${200 * 1024 * 1024}`, { method: 'POST', headers: { 'JOB-TOKEN': build.token } });
    expect(tooBig.status).toBe(413);
    const authorized = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts/authorize?artifact_format=zip&artifact_type=archive&filesize=${archive.length}`, { method: 'POST', headers: { 'JOB-TOKEN': build.token } });
    expect(authorized.status).toBe(200);
    expect((await upload(build.id, 'glcbt-wrong')).status).toBe(403);
    expect((await upload(build.id, build.token, 'artifact_format=tarball')).status).toBe(400);
    const uploaded = await upload(build.id, build.token);
    expect(uploaded.status).toBe(201);
    expect((await finish(build.id, build.token)).status).toBe(200);
    expect((await upload(build.id, build.token)).status).toBe(403);

    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    const test = await requestJob();
    expect(test.dependencies).toEqual([{ id: build.id, name: 'build', token: test.token, artifacts_file: { filename: 'artifacts.zip', size: archive.length } }]);
    const download = await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts`, { headers: { 'JOB-TOKEN': test.token } });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(archive);
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts`, { headers: { 'JOB-TOKEN': build.token } })).status).toBe(403);

    const reporter = await fx.member(project.id, 20);
    const viaApi = await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: reporter.token });
    expect(viaApi.status).toBe(200);
    expect(viaApi.headers.get('content-disposition')).toContain('filename="artifacts.zip"');
    expect(viaApi.raw).toEqual(archive);
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('DELETE', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: stranger.token })).status).toBe(404);
    expect((await fx.call('DELETE', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: reporter.token })).status).toBe(403);
    const developer = await fx.member(project.id, 30);
    expect((await fx.call('DELETE', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: developer.token })).status).toBe(204);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts`, { token: reporter.token })).status).toBe(404);

    // expiry: an archive past its expire_in is removed by the sweep
    expect((await upload(test.id, test.token, 'artifact_format=zip&artifact_type=archive&expire_in=1+day')).status).toBe(201);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${test.id}/artifacts`)).status).toBe(200);
    await fx.server.app.db.query(`UPDATE ci_job_artifacts SET expire_at = now() - interval '1 minute' WHERE job_id = $1`, [test.id]);
    await fx.server.app.services.stuckJobs.sweep();
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${test.id}/artifacts`)).status).toBe(404);
  });

  it('serves one file out of the archive and the latest archive of a ref by job name', async () => {
    const yazl = (await import('yazl')).default;
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('coverage: 93%\n'), 'out/summary.txt');
    zip.end();
    const pieces: Buffer[] = [];
    for await (const piece of zip.outputStream) pieces.push(piece as Buffer);
    const realZip = Buffer.concat(pieces);

    await fx.root.RepositoryFiles.create(project.id, 'CHANGELOG', 'main', 'v2\n', 'Second pipeline');
    await eventually(async () => (await fx.root.Jobs.all(project.id, { scope: ['pending'] as never })).length > 0);
    const build = await requestJob();
    const form = new FormData();
    form.append('file', new Blob([realZip]), 'artifacts.zip');
    expect((await fetch(`${fx.server.url}/api/v4/jobs/${build.id}/artifacts?artifact_format=zip&artifact_type=archive`, { method: 'POST', headers: { 'JOB-TOKEN': build.token }, body: form })).status).toBe(201);
    expect((await finish(build.id, build.token)).status).toBe(200);

    const file = await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts/out/summary.txt`);
    expect(file.status).toBe(200);
    expect(file.raw.toString()).toBe('coverage: 93%\n');
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts/out/none.txt`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts/out/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    const stranger = await fx.server.createUser();
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${build.id}/artifacts/out/summary.txt`, { token: stranger.token })).status).toBe(404);

    const byRef = await fx.call('GET', `/projects/${project.id}/jobs/artifacts/main/download?job=build`);
    expect(byRef.status).toBe(200);
    expect(byRef.raw).toEqual(realZip);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/artifacts/main/download?job=nope`)).status).toBe(404);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/artifacts/main/download`)).status).toBe(400);
    expect((await fx.call('GET', `/projects/${project.id}/jobs/artifacts/main/download?job=build`, { token: stranger.token })).status).toBe(404);
  });
});
