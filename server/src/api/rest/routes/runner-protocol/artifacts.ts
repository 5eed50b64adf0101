import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { JobArtifactRow } from '../../../../domains/runner-protocol/job-artifacts.repository.js';
import { input, pathParam, signedIn, type RestContext } from '../../context.js';
import { optionalInt, optionalString } from '../../params.js';
import { uploadedFile } from '../uploads/multipart-files.js';
import { jobIdParam, jobToken } from './jobs.js';

/** An archive as a download: GitLab's Content-Disposition with the stored file name. */
function sendArchive(reply: FastifyReply, artifact: JobArtifactRow, body: Readable) {
  const name = artifact.filename.replace(/["\\\r\n]/g, '_');
  return reply
    .status(200)
    .header('Content-Type', 'application/octet-stream')
    .header('Content-Length', String(artifact.size))
    .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(artifact.filename)}`)
    .send(body);
}

/**
 * Job artifacts (lib/api/ci/runner.rb and lib/api/ci/job_artifacts.rb): the runner's authorize,
 * upload and dependency download with a job token, and the jobs API's download and delete.
 */
export function runnerArtifactRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { jobArtifacts } = ctx.services;

  app.post('/jobs/:id/artifacts/authorize', async (request, reply) => {
    const params = input(request);
    const result = await jobArtifacts.authorize(jobIdParam(request), jobToken(request), optionalInt(params, 'filesize'));
    return reply.status(200).header('Content-Type', 'application/vnd.gitlab-workhorse+json').send(JSON.stringify(result));
  });

  app.post('/jobs/:id/artifacts', async (request, reply) => {
    const params = input(request);
    const file = uploadedFile(request, 'file');
    await jobArtifacts.upload(jobIdParam(request), jobToken(request), {
      file: file ? { filename: file.filename, data: file.data } : undefined,
      artifactType: optionalString(params, 'artifact_type'),
      artifactFormat: optionalString(params, 'artifact_format'),
      expireIn: optionalString(params, 'expire_in'),
    });
    // GitLab answers the runner 201 with the status as the body.
    return reply.status(201).type('text/plain').send('201');
  });

  app.get('/jobs/:id/artifacts', async (request, reply) => {
    const { artifact, body } = await jobArtifacts.downloadForRunner(jobIdParam(request), jobToken(request));
    return sendArchive(reply, artifact, body);
  });

  app.get('/projects/:id/jobs/:job_id/artifacts', async (request, reply) => {
    const { artifact, body } = await jobArtifacts.download(request.actor, pathParam(request, 'id'), jobIdParam(request, 'job_id'));
    return sendArchive(reply, artifact, body);
  });

  app.get('/projects/:id/jobs/:job_id/artifacts/*', async (request, reply) => {
    const path = (request.params as Record<string, string>)['*'] ?? '';
    const file = await jobArtifacts.file(request.actor, pathParam(request, 'id'), jobIdParam(request, 'job_id'), path);
    const name = file.filename.replace(/["\\\r\n]/g, '_');
    return reply
      .status(200)
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .send(file.data);
  });

  app.get('/projects/:id/jobs/artifacts/:ref/download', async (request, reply) => {
    const { artifact, body } = await jobArtifacts.downloadForRef(request.actor, pathParam(request, 'id'), pathParam(request, 'ref'), optionalString(input(request), 'job'));
    return sendArchive(reply, artifact, body);
  });

  app.delete('/projects/:id/jobs/:job_id/artifacts', async (request, reply) => {
    await jobArtifacts.remove(signedIn(request), pathParam(request, 'id'), jobIdParam(request, 'job_id'));
    return reply.status(204).send();
  });
}
