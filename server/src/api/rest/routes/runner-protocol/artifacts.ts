import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import type { JobArtifactRow } from '../../../../domains/runner-protocol/job-artifacts.repository.js';
import { signedIn, type RestContext } from '../../context.js';
import { Input, Int, NamespacedRef, Optional, Str, routes } from '../../input/route-kit.js';
import { JobIdPath, JobTokenInput, jobIdParam, jobToken } from './jobs.js';
import { readStreamedUpload } from './streamed-upload.js';

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
export function runnerArtifactRoutes(app: FastifyInstance, ctx: RestContext<'jobArtifacts'>): void {
  const { jobArtifacts } = ctx.services;
  const r = routes(app);
  const RunnerJob = { id: JobIdPath(), ...JobTokenInput };
  const ProjectJob = Input({ id: NamespacedRef(), job_id: JobIdPath() });

  r.post('/jobs/:id/artifacts/authorize', Input({ ...RunnerJob, filesize: Optional(Int({ description: 'the size of the archive in bytes' })) }), async (params, request, reply) => {
    const result = await jobArtifacts.authorize(jobIdParam(params.id), jobToken(request, params), params.filesize);
    return reply.status(200).header('Content-Type', 'application/vnd.gitlab-workhorse+json').send(JSON.stringify(result));
  });

  // The upload is streamed into the object store (never buffered): in a child context whose only
  // multipart parser leaves the body unread, so that the instance-wide multipart plugin (which
  // reads whole parts into memory) never sees it and no request size limit applies before the
  // instance's maximum artifacts size.
  app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const UploadInput = Input({
      ...RunnerJob,
      artifact_type: Optional(Str()),
      artifact_format: Optional(Str()),
      expire_in: Optional(Str()),
    });
    routes(uploads).post('/jobs/:id/artifacts', UploadInput, async (params, request, reply) => {
      // The job token is checked before a byte of the body is read.
      const job = await jobArtifacts.authenticateUpload(jobIdParam(params.id), jobToken(request, params));
      await readStreamedUpload(request.raw, 'file', (file, fields) =>
        jobArtifacts.storeUpload(
          job,
          {
            artifactType: params.artifact_type ?? fields.artifact_type,
            artifactFormat: params.artifact_format ?? fields.artifact_format,
            expireIn: params.expire_in ?? fields.expire_in,
          },
          file,
        ),
      );
      // GitLab answers the runner 201 with the status as the body.
      return reply.status(201).type('text/plain').send('201');
    });
  });

  r.get('/jobs/:id/artifacts', Input(RunnerJob), async (params, request, reply) => {
    const { artifact, body } = await jobArtifacts.downloadForRunner(jobIdParam(params.id), jobToken(request, params));
    return sendArchive(reply, artifact, body);
  });

  r.get('/projects/:id/jobs/:job_id/artifacts', ProjectJob, async (params, request, reply) => {
    const { artifact, body } = await jobArtifacts.download(request.actor, params.id, jobIdParam(params.job_id, 'job_id'));
    return sendArchive(reply, artifact, body);
  });

  const FileInput = Input({ id: NamespacedRef(), job_id: JobIdPath(), '*': Optional(Str({ description: 'the path of a file in the archive' })) });
  r.get('/projects/:id/jobs/:job_id/artifacts/*', FileInput, async (params, request, reply) => {
    const file = await jobArtifacts.file(request.actor, params.id, jobIdParam(params.job_id, 'job_id'), params['*'] ?? '');
    const name = file.filename.replace(/["\\\r\n]/g, '_');
    return reply
      .status(200)
      .header('Content-Type', 'application/octet-stream')
      .header('Content-Disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .send(file.data);
  });

  const RefInput = Input({ id: NamespacedRef(), ref: Str({ description: 'a branch or tag name' }), job: Optional(Str({ description: "the job's name" })) });
  r.get('/projects/:id/jobs/artifacts/:ref/download', RefInput, async (params, request, reply) => {
    const { artifact, body } = await jobArtifacts.downloadForRef(request.actor, params.id, params.ref, params.job);
    return sendArchive(reply, artifact, body);
  });

  r.delete('/projects/:id/jobs/:job_id/artifacts', ProjectJob, async (params, request, reply) => {
    await jobArtifacts.remove(signedIn(request), params.id, jobIdParam(params.job_id, 'job_id'));
    return reply.status(204).send();
  });
}
