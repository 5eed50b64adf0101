/**
 * A merge request's exposed artifacts (GitLab's FindExposedArtifactsService): the jobs of its
 * head pipeline whose `artifacts:expose_as` names them, each linked from the widget's pipeline
 * container. GitLab's rules:
 * - the latest jobs of the head pipeline with `expose_as`, in job order, at most 10 links;
 * - a job is listed when at least one of its `artifacts:paths` exists in its archive (a file, or
 *   a directory with anything under it); a job without an archive is left out;
 * - the link is to the file itself when exactly one path exists and it is a file, otherwise to
 *   the job's artifacts browser;
 * - each link carries the expose_as text, the job's name and the job's page.
 * Pure functions here; the service that reads the rows and archives is below them.
 */
import type { Actor } from '../../auth/actor.js';
import { NotFoundError } from '../../platform/errors.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { JobRow, PipelineRow } from '../pipelines/pipeline.js';
import type { PipelinesRepository } from '../pipelines/pipelines.repository.js';
import { createHash } from 'node:crypto';

/** GitLab's MAX_EXPOSED_ARTIFACTS. */
export const MAX_EXPOSED_ARTIFACTS = 10;

export interface ExposedArtifact {
  text: string;
  url: string;
  job_name: string;
  job_path: string;
}

export interface ArchiveEntry {
  path: string;
  directory: boolean;
}

/** A job's `expose_as` and `paths`, or null when it exposes nothing. */
export function exposureOf(job: Pick<JobRow, 'options'>): { exposeAs: string; paths: string[] } | null {
  const artifacts = job.options.artifacts as { expose_as?: unknown; paths?: unknown } | undefined;
  if (!artifacts || typeof artifacts.expose_as !== 'string' || !Array.isArray(artifacts.paths)) return null;
  const paths = artifacts.paths.filter((path): path is string => typeof path === 'string');
  return paths.length > 0 ? { exposeAs: artifacts.expose_as, paths } : null;
}

/** `./public/` → `public`: a configured path as the archive names its entries. */
function archivePath(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * The first two of `paths` that exist in the archive (GitLab reads no more: two already mean the
 * browser), each a file or a directory. Pure.
 */
export function existingPaths(entries: readonly ArchiveEntry[], paths: readonly string[]): { path: string; file: boolean }[] {
  const found: { path: string; file: boolean }[] = [];
  for (const configured of paths) {
    const path = archivePath(configured);
    if (path === '') continue;
    const file = entries.some((entry) => !entry.directory && entry.path === path);
    const directory = !file && entries.some((entry) => entry.path.startsWith(`${path}/`) || (entry.directory && entry.path === path));
    if (file || directory) found.push({ path, file });
    if (found.length === 2) break;
  }
  return found;
}

/** Where the link goes: the one file (through the jobs API, as the artifacts browser downloads it), or the job's artifacts browser. Pure. */
export function exposedArtifactUrl(found: readonly { path: string; file: boolean }[], urls: { file: (path: string) => string; browse: string }): string {
  return found.length === 1 && found[0]!.file ? urls.file(found[0]!.path) : urls.browse;
}

/**
 * The ETag of a merge request's exposed artifacts: the head pipeline, and each exposing job's
 * archive (its row changes when the runner uploads again). Equal tags mean an equal answer, so a
 * poll whose If-None-Match matches is answered 304 before any archive is read. Pure.
 */
export function exposedArtifactsEtag(pipelineId: number, jobs: readonly { id: number; exposeAs: string; paths: readonly string[]; archive: { id: number; size: number } | null }[]): string {
  const hash = createHash('sha256').update(JSON.stringify([pipelineId, jobs.map((job) => [job.id, job.exposeAs, job.paths, job.archive?.id ?? null, job.archive?.size ?? null])]));
  return `W/"${hash.digest('hex').slice(0, 32)}"`;
}

export type ExposedArtifactsResult = { status: 'none' } | { status: 'unchanged'; etag: string } | { status: 'listed'; etag: string; data: ExposedArtifact[] };

export function createExposedArtifacts(deps: {
  mergeRequests: Pick<MergeRequestsService, 'open'>;
  pipelines: Pick<PipelinesRepository, 'headPipelines' | 'latestJobs'>;
  /** the archive rows of these jobs, by job */
  archives: (jobIds: readonly number[]) => Promise<Map<number, { id: number; size: number }>>;
  /** the entries of a job's archive, read with the caller's rights (null when it has none) */
  entries: (actor: Actor, projectId: number, jobId: number) => Promise<ArchiveEntry[] | null>;
}) {
  return {
    /**
     * GET /:project/-/merge_requests/:iid/exposed_artifacts.json: `none` (GitLab's 204) when no job
     * of the head pipeline exposes artifacts; `unchanged` when `ifNoneMatch` is the current tag.
     * Whoever may read the merge request and the project's pipelines may read it; others get a 404.
     */
    async list(actor: Actor, fullPath: string, iid: number, ifNoneMatch: string | null): Promise<ExposedArtifactsResult> {
      const { project, mergeRequest, abilities } = await deps.mergeRequests.open(actor, fullPath, iid);
      if (!abilities.has('read_pipeline')) throw new NotFoundError();
      const head: PipelineRow | undefined = (await deps.pipelines.headPipelines([mergeRequest])).get(mergeRequest.id);
      if (!head) return { status: 'none' };
      const exposing = (await deps.pipelines.latestJobs(head.id))
        .map((job) => ({ job, exposure: exposureOf(job) }))
        .filter((entry): entry is { job: JobRow; exposure: NonNullable<ReturnType<typeof exposureOf>> } => entry.exposure !== null)
        .sort((a, b) => Number(a.job.id) - Number(b.job.id));
      if (exposing.length === 0) return { status: 'none' };
      const archives = await deps.archives(exposing.map(({ job }) => Number(job.id)));
      const etag = exposedArtifactsEtag(
        Number(head.id),
        exposing.map(({ job, exposure }) => ({ id: Number(job.id), exposeAs: exposure.exposeAs, paths: exposure.paths, archive: archives.get(Number(job.id)) ?? null })),
      );
      if (ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) return { status: 'unchanged', etag };
      const data: ExposedArtifact[] = [];
      for (const { job, exposure } of exposing) {
        if (data.length >= MAX_EXPOSED_ARTIFACTS) break;
        if (!archives.has(Number(job.id))) continue;
        const entries = await deps.entries(actor, Number(job.project_id), Number(job.id));
        const found = entries ? existingPaths(entries, exposure.paths) : [];
        if (found.length === 0) continue;
        const jobPath = `/${project.full_path}/-/jobs/${job.id}`;
        const url = exposedArtifactUrl(found, {
          file: (path) => `/api/v4/projects/${job.project_id}/jobs/${job.id}/artifacts/${path.split('/').map(encodeURIComponent).join('/')}`,
          browse: `${jobPath}/artifacts/browse`,
        });
        data.push({ text: exposure.exposeAs, url, job_name: job.name, job_path: jobPath });
      }
      return { status: 'listed', etag, data };
    },
  };
}

export type ExposedArtifacts = ReturnType<typeof createExposedArtifacts>;
