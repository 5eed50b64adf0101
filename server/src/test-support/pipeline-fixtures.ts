/**
 * Fixtures for tests that drive real pipelines: a project whose `.gitlab-ci.yml` (and other files)
 * is committed through the API (a push: the queue creates its pipeline), the pipeline of a commit
 * once it exists, its jobs by name, and jobs run to an end the way a runner ends them (assigned
 * with a job token, artifacts uploaded with it, the result reported), through the engine.
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { digest } from '../auth/secrets.js';
import type { JobRow, PipelineRow } from '../domains/pipelines/pipeline.js';
import { eventually } from './eventually.js';
import type { RepositoryFixtures } from './repository-fixtures.js';

export interface CiProject {
  id: number;
  path_with_namespace: string;
}

export function pipelineFixtures(fx: RepositoryFixtures) {
  const services = () => fx.server.app.services;
  let tokens = 0;

  /** Commits `files` on `branch` through the API (a push) and answers the commit's sha. */
  async function commit(projectId: number, files: Record<string, string>, message = 'Update CI', branch = 'main'): Promise<string> {
    const tree = new Set((await fx.root.Repositories.allRepositoryTrees(projectId, { ref: branch, recursive: true })).map((entry) => entry.path as string));
    const actions = Object.entries(files).map(([filePath, content]) => ({ action: tree.has(filePath) ? 'update' : 'create', filePath, content }));
    const created = await fx.root.Commits.create(projectId, branch, message, actions as never);
    return created.id as string;
  }

  return {
    commit,

    /**
     * A project (owned by root, `main` unprotected so Developers run pipelines on it) with `files`
     * committed; answers it with the pipeline of that commit.
     */
    async createCiProject(name: string, files: Record<string, string>, options: { visibility?: 'private' | 'internal' | 'public' } = {}) {
      const project = await fx.createProject(name, options);
      await fx.root.ProtectedBranches.remove(project.id, 'main');
      const sha = await commit(project.id, files, 'Add CI');
      return { project, pipeline: await this.pipelineOf(project.id, sha), sha };
    },

    /** The pipeline of `sha` (source push unless told), once the queue created it. */
    pipelineOf(projectId: number, sha: string, source = 'push'): Promise<PipelineRow> {
      return eventually(
        async () => (await services().pipelinesRepository.listPipelines({ projectId, sha, source, orderBy: 'id', sort: 'desc', limit: 1, offset: 0 })).pipelines[0],
        { what: `the ${source} pipeline of ${sha}` },
      );
    },

    async pipeline(id: number): Promise<PipelineRow> {
      return (await services().pipelinesRepository.pipelineById(id))!;
    },

    async jobs(pipelineId: number): Promise<Record<string, JobRow>> {
      return Object.fromEntries((await services().pipelinesRepository.latestJobs(pipelineId)).map((job) => [job.name, job]));
    },

    async statuses(pipelineId: number): Promise<Record<string, string>> {
      return Object.fromEntries((await services().pipelinesRepository.latestJobs(pipelineId)).map((job) => [job.name, job.status]));
    },

    /** Waits until `probe` of the pipeline's job statuses holds (the queue moves bridges and resources). */
    async statusesBecome(pipelineId: number, expected: Record<string, string>): Promise<void> {
      await eventually(
        async () => {
          const now = await this.statuses(pipelineId);
          return Object.entries(expected).every(([name, status]) => now[name] === status);
        },
        { what: `jobs of pipeline ${pipelineId} to be ${JSON.stringify(expected)}` },
      );
    },

    /** Runs a pending job to `status` as a runner would: assigned with a job token, artifacts uploaded, result reported. */
    async runJob(jobId: number, status: 'success' | 'failed' = 'success', artifacts?: Record<string, string>): Promise<void> {
      const token = `glcbt-fixture-${process.pid}-${++tokens}-${jobId}`;
      await services().pipelineEngine.assignJob(jobId, { runnerId: 0, tokenHash: digest(token) });
      if (artifacts) {
        const zip = new yazl.ZipFile();
        for (const [path, content] of Object.entries(artifacts)) zip.addBuffer(Buffer.from(content), path);
        zip.end();
        const pieces: Buffer[] = [];
        for await (const piece of zip.outputStream) pieces.push(piece as Buffer);
        const job = await services().jobArtifacts.authenticateUpload(jobId, token);
        await services().jobArtifacts.storeUpload(job, {}, { filename: 'artifacts.zip', stream: Readable.from([Buffer.concat(pieces)]) });
      }
      await services().pipelineEngine.recordJobResult(jobId, { status, exitCode: status === 'success' ? 0 : 1, ...(status === 'failed' ? { failureReason: 'script_failure' } : {}) });
    },

    /** The pipeline a bridge created, once the queue created it. */
    downstreamOf(bridgeId: number): Promise<PipelineRow> {
      return eventually(() => services().downstreamRepository.downstreamOfBridge(bridgeId), { what: `the downstream pipeline of bridge ${bridgeId}` });
    },

    async variables(pipelineId: number): Promise<Record<string, string>> {
      return Object.fromEntries((await services().pipelinesRepository.variables(pipelineId)).map((v) => [v.key, v.value]));
    },
  };
}

export type PipelineFixtures = ReturnType<typeof pipelineFixtures>;
