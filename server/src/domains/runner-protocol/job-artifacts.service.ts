/**
 * Job artifacts (GitLab's Ci::JobArtifact): the runner authorizes and uploads them with its job
 * token, downloads its dependencies' archives with it, and users download or delete a job's
 * archive through the jobs API. The bytes live in the object store; expired ones are removed by
 * the stuck-jobs sweep.
 */
import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { jobTokenActor, type Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../platform/errors.js';
import { objectKeys, type ObjectStore } from '../../platform/storage/index.js';
import { parseDuration } from '../pipelines/config/duration.js';
import type { JobRow } from '../pipelines/pipeline.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import type { User } from '../users/user.js';
import type { JobArtifactRow, JobArtifactsRepository } from './job-artifacts.repository.js';
import { artifactsDirectory, type ArtifactsEntry } from './artifacts-listing.js';
import { listZipEntries, normalizeEntryPath, readZipEntry, type ZipEntryResult } from './zip-entry.js';

/** GitLab's default maximum artifacts size (max_artifacts_size), 100 MB. */
export const MAX_ARTIFACTS_BYTES = 100 * 1024 * 1024;
/** GitLab's answer to an artifact over the maximum size (Ci::JobArtifacts::CreateService). */
export const TOO_LARGE_MESSAGE = 'file size has reached maximum size limit';

/** The upload's parameters (query string, or multipart fields sent before the file). */
export interface ArtifactUploadParams {
  artifactType?: string;
  artifactFormat?: string;
  expireIn?: string;
}

/** Passes bytes through while counting them; past `limit` it fails with GitLab's 413. */
function sizeLimit(limit: number, counted: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > limit) done(new PayloadTooLargeError(TOO_LARGE_MESSAGE));
      else done(null, chunk);
    },
  });
}
/** GitLab's default expiry when the job sets none (default_artifacts_expire_in), 30 days. */
export const DEFAULT_EXPIRE_IN_SECONDS = 30 * 24 * 3600;

const ARTIFACT_FORMATS = ['zip', 'gzip', 'raw'] as const;
const ARTIFACT_TYPE = /^[a-z_]{1,50}$/;

/** When an artifact expires: `never` → null, a duration from now, or GitLab's 30-day default. */
export function artifactExpiry(expireIn: string | undefined, now: Date): Date | null {
  if (expireIn === undefined || expireIn === '') return new Date(now.getTime() + DEFAULT_EXPIRE_IN_SECONDS * 1000);
  if (expireIn.trim().toLowerCase() === 'never') return null;
  const seconds = parseDuration(expireIn);
  if (seconds === null) throw new ValidationError('400 (Bad request) "expire_in" is invalid');
  return new Date(now.getTime() + seconds * 1000);
}

export function createJobArtifacts(deps: {
  artifacts: JobArtifactsRepository;
  store: Pick<ObjectStore, 'put' | 'get' | 'delete' | 'list'>;
  authenticateJob: (jobId: number, token: string | undefined) => Promise<JobRow>;
  liveJobForToken: (token: string) => Promise<JobRow | null>;
  /** who a job token acts as (its job's user, in its job's project), for another project's archive */
  jobTokenIdentity?: (token: string) => Promise<{ user: User; projectId: number } | null>;
  pipelines: Pick<PipelinesService, 'job'>;
  projects: Pick<ProjectsService, 'find'>;
  authorizer: Pick<Authorizer, 'authorize'>;
  /** the largest artifact accepted, in bytes (the instance's max_artifacts_size) */
  maxBytes?: () => Promise<number>;
  now?: () => Date;
}) {
  const maxBytes = deps.maxBytes ?? (async () => MAX_ARTIFACTS_BYTES);
  const now = deps.now ?? (() => new Date());

  function checkParams(params: ArtifactUploadParams): { type: string; format: string; expireAt: Date | null } {
    const type = params.artifactType || 'archive';
    const format = params.artifactFormat || 'zip';
    if (!ARTIFACT_TYPE.test(type)) throw new ValidationError('400 (Bad request) "artifact_type" does not have a valid value');
    if (!(ARTIFACT_FORMATS as readonly string[]).includes(format)) throw new ValidationError('400 (Bad request) "artifact_format" does not have a valid value');
    return { type, format, expireAt: artifactExpiry(params.expireIn, now()) };
  }

  async function open(row: JobArtifactRow): Promise<{ artifact: JobArtifactRow; body: Readable }> {
    return { artifact: row, body: await deps.store.get(row.object_key) };
  }

  return {
    /** POST /jobs/:id/artifacts/authorize: 413 when the announced size is over the limit. */
    async authorize(jobId: number, token: string | undefined, filesize: number | undefined): Promise<{ TempPath: string; MaximumSize: number }> {
      await deps.authenticateJob(jobId, token);
      const limit = await maxBytes();
      if (filesize !== undefined && filesize > limit) throw new PayloadTooLargeError(TOO_LARGE_MESSAGE);
      return { TempPath: '', MaximumSize: limit };
    },

    /**
     * POST /jobs/:id/artifacts, first step: the job token is checked before a byte of the body is
     * read (403 for a dead token, as GitLab's authorize step refuses it).
     */
    authenticateUpload: (jobId: number, token: string | undefined): Promise<JobRow> => deps.authenticateJob(jobId, token),

    /**
     * POST /jobs/:id/artifacts, the file: streamed into the object store as it arrives (never
     * held in memory), cut off with GitLab's 413 past the instance's maximum artifacts size (the
     * partial object is discarded, nothing is recorded). An upload of a type the job already has
     * replaces it (the runner retries), and the replaced object is deleted.
     */
    async storeUpload(job: JobRow, params: ArtifactUploadParams, file: { filename: string; stream: Readable }): Promise<JobArtifactRow> {
      const { type, format, expireAt } = checkParams(params);
      const filename = file.filename.split(/[\\/]/).pop() || 'artifacts.zip';
      const key = objectKeys.artifact(job.project_id, job.id, `${randomBytes(6).toString('hex')}-${filename}`);
      const counted = { bytes: 0 };
      const limited = file.stream.pipe(sizeLimit(await maxBytes(), counted));
      file.stream.on('error', (error) => limited.destroy(error));
      await deps.store.put(key, limited);
      const { row, replacedKey } = await deps.artifacts.upsert({ job_id: job.id, project_id: job.project_id, file_type: type, file_format: format, filename, size: counted.bytes, object_key: key, expire_at: expireAt });
      if (replacedKey && replacedKey !== key) await deps.store.delete(replacedKey);
      return row;
    },

    /**
     * GET /jobs/:id/artifacts for the runner: the archive of job `jobId`, with the job token of a
     * running job of the same pipeline (GitLab authenticates it through the dependent job).
     */
    async downloadForRunner(jobId: number, token: string | undefined): Promise<{ artifact: JobArtifactRow; body: Readable }> {
      const dependent = token ? await deps.liveJobForToken(token) : null;
      if (!dependent) throw new ForbiddenError();
      const archive = await deps.artifacts.archiveOf(jobId);
      if (!archive) throw new NotFoundError();
      if (archive.project_id !== dependent.project_id) {
        // Another project's archive (`needs: project:`): read as the job token reads that project's jobs.
        const identity = deps.jobTokenIdentity ? await deps.jobTokenIdentity(token!) : null;
        if (!identity) throw new NotFoundError();
        const actor = jobTokenActor(identity.user, identity.projectId);
        const project = await deps.projects.find(actor, archive.project_id);
        await deps.authorizer.authorize(actor, 'read_build', { project });
      }
      return open(archive);
    },

    /**
     * One file of a job's archive for the server itself (a child pipeline's `include: artifact`):
     * null when the job has no archive. The caller has checked who may read it.
     */
    async readFileOfJob(jobId: number, path: string, maxBytes?: number): Promise<ZipEntryResult | null> {
      const archive = await deps.artifacts.archiveOf(jobId);
      if (!archive) return null;
      const { body } = await open(archive);
      const pieces: Buffer[] = [];
      for await (const piece of body) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
      return readZipEntry(Buffer.concat(pieces), path, maxBytes);
    },

    /** The archives a job receives as `dependencies`. */
    archivesOf: (jobIds: readonly number[]) => deps.artifacts.archivesOf(jobIds),

    /** GET /projects/:id/jobs/:job_id/artifacts: for whoever may read the project's jobs. */
    async download(actor: Actor, projectIdOrPath: string, jobId: number): Promise<{ artifact: JobArtifactRow; body: Readable }> {
      const { job } = await deps.pipelines.job(actor, projectIdOrPath, jobId);
      const archive = await deps.artifacts.archiveOf(job.id);
      if (!archive) throw new NotFoundError();
      return open(archive);
    },

    /**
     * GET /:project/-/jobs/:job_id/artifacts/download?file_type=<type>: one artifact of the job by
     * its type (the archive when no type is named), for whoever may read the project's jobs:
     * what GraphQL's CiJobArtifact.downloadPath links to. 404 when the job has none of that type.
     */
    async downloadOfType(actor: Actor, projectIdOrPath: string, jobId: number, fileType: string): Promise<{ artifact: JobArtifactRow; body: Readable }> {
      const { job } = await deps.pipelines.job(actor, projectIdOrPath, jobId);
      const artifact = (await deps.artifacts.forJobs([job.id])).find((row) => row.file_type === (fileType || 'archive'));
      if (!artifact) throw new NotFoundError();
      return open(artifact);
    },

    /**
     * GET /projects/:id/jobs/:job_id/artifacts/*path: one file of the archive, read in memory
     * (zip-entry.ts guards against zip slips and bombs). 404 when it is not there.
     */
    async file(actor: Actor, projectIdOrPath: string, jobId: number, path: string): Promise<{ filename: string; data: Buffer }> {
      const { body } = await this.download(actor, projectIdOrPath, jobId);
      const pieces: Buffer[] = [];
      for await (const piece of body) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
      const entry = await readZipEntry(Buffer.concat(pieces), path);
      if (entry.found) return { filename: path.split('/').pop() ?? 'file', data: entry.data };
      if (entry.reason === 'too_large') throw new PayloadTooLargeError('413 Artifact file too large');
      throw new NotFoundError();
    },

    /**
     * One directory of the job's archive for the artifacts browser (`path` '' is the root), with
     * the archive's name, size and expiry. 404 when the job has no archive or no such directory;
     * the same reading rule as the download (read_pipeline, GitLab's public_builds).
     */
    async browse(actor: Actor, projectIdOrPath: string, jobId: number, path: string): Promise<{ artifact: JobArtifactRow; path: string; entries: ArtifactsEntry[] }> {
      const dir = path.replace(/^\/+|\/+$/g, '');
      if (dir !== '' && normalizeEntryPath(dir) !== dir) throw new NotFoundError();
      const { artifact, body } = await this.download(actor, projectIdOrPath, jobId);
      const pieces: Buffer[] = [];
      for await (const piece of body) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
      const all = await listZipEntries(Buffer.concat(pieces));
      const entries = all ? artifactsDirectory(all, dir) : null;
      if (!entries) throw new NotFoundError();
      return { artifact, path: dir, entries };
    },

    /**
     * Every entry of the job's archive (a merge request's exposed artifacts), with the download's
     * reading rule; null when the job has no archive or it is not a readable zip.
     */
    async entries(actor: Actor, projectIdOrPath: string, jobId: number): Promise<{ path: string; size: number; directory: boolean }[] | null> {
      let body: Readable;
      try {
        ({ body } = await this.download(actor, projectIdOrPath, jobId));
      } catch (error) {
        if (error instanceof NotFoundError || error instanceof ForbiddenError) return null;
        throw error;
      }
      const pieces: Buffer[] = [];
      for await (const piece of body) pieces.push(Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string));
      return listZipEntries(Buffer.concat(pieces));
    },

    /** The artifacts of these jobs, by job (the jobs API's `artifacts`, `artifacts_file`, `artifacts_expire_at`). */
    async describe(jobIds: readonly number[]): Promise<Map<number, JobArtifactRow[]>> {
      const byJob = new Map<number, JobArtifactRow[]>();
      for (const row of await deps.artifacts.forJobs(jobIds)) byJob.set(row.job_id, [...(byJob.get(row.job_id) ?? []), row]);
      return byJob;
    },

    /** POST /projects/:id/jobs/:job_id/artifacts/keep: GitLab's update_build (Developers on the ref); 404 without artifacts. */
    async keep(actor: Actor, projectIdOrPath: string, jobId: number): Promise<void> {
      const { job, project } = await deps.pipelines.job(actor, projectIdOrPath, jobId);
      await deps.authorizer.authorize(actor, 'update_pipeline', { project });
      if (!(await deps.artifacts.archiveOf(job.id))) throw new NotFoundError();
      await deps.artifacts.keep(job.id);
    },

    /** GET /projects/:id/jobs/artifacts/:ref/download?job=name: the archive of the ref's latest successful job of that name. */
    async downloadForRef(actor: Actor, projectIdOrPath: string, ref: string, jobName: string | undefined): Promise<{ artifact: JobArtifactRow; body: Readable }> {
      if (!jobName) throw ValidationError.missing('job');
      const project = await deps.projects.find(actor, projectIdOrPath);
      const jobId = await deps.artifacts.latestJobWithArchive(project.id, ref, jobName);
      if (jobId === null) throw new NotFoundError();
      return this.download(actor, String(project.id), jobId);
    },

    /** DELETE /projects/:id/jobs/:job_id/artifacts: Developers and above (GitLab's destroy_artifacts). */
    async remove(actor: Actor, projectIdOrPath: string, jobId: number): Promise<void> {
      const { job, project } = await deps.pipelines.job(actor, projectIdOrPath, jobId);
      await deps.authorizer.authorize(actor, 'update_pipeline', { project });
      for (const row of await deps.artifacts.removeForJob(job.id)) await deps.store.delete(row.object_key);
    },

    /** Removes every artifact of a job, rows and bytes (the job's erase; the caller has checked who may). Returns how many. */
    async removeAllOfJob(jobId: number): Promise<number> {
      const rows = await deps.artifacts.removeForJob(jobId);
      for (const row of rows) await deps.store.delete(row.object_key);
      return rows.length;
    },

    /** The objects kept for a job (its artifacts' bytes), by key. */
    objectsOfJob: (projectId: number, jobId: number) => deps.store.list(objectKeys.artifactsOfJob(projectId, jobId)),

    /** Removes expired artifacts and their objects; returns how many. */
    async removeExpired(): Promise<number> {
      let total = 0;
      for (;;) {
        const rows = await deps.artifacts.takeExpired();
        for (const row of rows) await deps.store.delete(row.object_key);
        total += rows.length;
        if (rows.length < 500) return total;
      }
    },
  };
}

export type JobArtifacts = ReturnType<typeof createJobArtifacts>;
