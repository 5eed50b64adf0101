/**
 * A merge request's report comparisons, for its widget and Changes tab (GitLab's
 * `…/merge_requests/:iid/test_reports.json` and `coverage_reports.json`): the head pipeline is
 * the newest pipeline of the source branch at the latest version's head commit, the base pipeline
 * the newest of the target branch at its base commit (GitLab's base_pipeline: none means every
 * failure is new). Whoever may read the merge request and the project's pipelines may read them;
 * anyone else gets a 404.
 */
import type { Actor } from '../../auth/actor.js';
import { NotFoundError } from '../../platform/errors.js';
import type { MergeRequestDiffsRepository } from '../merge-requests/merge-request-diffs.repository.js';
import type { MergeRequestsService } from '../merge-requests/merge-requests.service.js';
import type { CiReports } from './ci-reports.service.js';

export const NO_TEST_REPORTS = 'This merge request does not have test reports';
export const NO_COVERAGE_REPORTS = 'This merge request does not have coverage reports';

export function createMergeRequestReports(deps: { mergeRequests: Pick<MergeRequestsService, 'open'>; diffs: Pick<MergeRequestDiffsRepository, 'latest' | 'files'>; reports: Pick<CiReports, 'compareForMergeRequest' | 'coverageForMergeRequest'> }) {
  async function open(actor: Actor, fullPath: string, iid: number) {
    const { project, mergeRequest, abilities } = await deps.mergeRequests.open(actor, fullPath, iid);
    if (!abilities.has('read_pipeline')) throw new NotFoundError();
    const version = await deps.diffs.latest(mergeRequest.id);
    if (!version) return null;
    return {
      version,
      refs: {
        sourceProjectId: mergeRequest.source_project_id ?? project.id,
        sourceBranch: mergeRequest.source_branch,
        headSha: version.head_commit_sha,
        targetProjectId: mergeRequest.target_project_id,
        targetBranch: mergeRequest.target_branch,
        baseSha: version.base_commit_sha ?? version.start_commit_sha,
      },
    };
  }

  return {
    async testReports(actor: Actor, fullPath: string, iid: number) {
      const opened = await open(actor, fullPath, iid);
      const result = opened ? await deps.reports.compareForMergeRequest(opened.refs) : { parsed: false as const, parsing: false };
      if (result.parsed) return { status: 'parsed' as const, data: result.comparison };
      return result.parsing ? { status: 'parsing' as const } : { status: 'error' as const, statusReason: NO_TEST_REPORTS };
    },

    async coverageReports(actor: Actor, fullPath: string, iid: number) {
      const opened = await open(actor, fullPath, iid);
      if (!opened) return { status: 'error' as const, statusReason: NO_COVERAGE_REPORTS };
      const paths = (await deps.diffs.files(opened.version.id)).filter((file) => !file.deleted_file).map((file) => file.new_path);
      const result = await deps.reports.coverageForMergeRequest(opened.refs, paths);
      return result.parsed ? { status: 'parsed' as const, data: { files: result.files } } : { status: 'error' as const, statusReason: NO_COVERAGE_REPORTS };
    },
  };
}

export type MergeRequestReports = ReturnType<typeof createMergeRequestReports>;
