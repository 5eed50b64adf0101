import { on, type Queryable } from '../../platform/db/database.js';
import type { PipelineRow } from './pipeline.js';

/** A merge request as head_pipeline and its pipelines list look at it. */
export interface MergeRequestPipelineSubject {
  id: number;
  source_project_id: number | null;
  source_branch: string;
  /** the diff head (GitLab's diff_head_sha) */
  head_commit_sha: string | null;
}

/** The pipelines of merge requests: head pipelines, a merge request's list, its merge request pipeline for a head. */
export function createMergeRequestPipelinesRepository(db: Queryable) {
  return {
    /**
     * Each merge request's pipeline (GitLab's diff_head_pipeline): the newest pipeline for its
     * diff head — a merge request pipeline whose commit or merged source is the head, or a branch
     * pipeline of the source branch at the head — merge request pipelines first. One query.
     */
    async headPipelines(mergeRequests: readonly MergeRequestPipelineSubject[], tx?: Queryable): Promise<Map<number, PipelineRow>> {
      const wanted = mergeRequests.filter((mr) => mr.head_commit_sha !== null);
      if (wanted.length === 0) return new Map();
      const { rows } = await on(db, tx).query<PipelineRow & { for_merge_request: number }>(
        `SELECT p.*, m.id AS for_merge_request
           FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[]) AS m(id, source_project_id, source_branch, head_sha)
           CROSS JOIN LATERAL (
             SELECT c.* FROM ci_pipelines c
              WHERE (c.merge_request_id = m.id AND (c.sha = m.head_sha OR c.source_sha = m.head_sha))
                 OR (c.project_id = m.source_project_id AND c.ref = m.source_branch AND NOT c.tag AND c.merge_request_id IS NULL AND c.sha = m.head_sha)
              ORDER BY (c.source = 'merge_request_event') DESC, c.id DESC
              LIMIT 1
           ) p`,
        [wanted.map((mr) => mr.id), wanted.map((mr) => mr.source_project_id), wanted.map((mr) => mr.source_branch), wanted.map((mr) => mr.head_commit_sha)],
      );
      return new Map(rows.map(({ for_merge_request, ...pipeline }) => [Number(for_merge_request), pipeline as PipelineRow]));
    },

    /**
     * The pipelines of a merge request (GitLab's PipelinesForMergeRequestFinder): its merge request
     * pipelines, and the source branch's pipelines for the commits of its versions, merge request
     * pipelines first, then newest first.
     */
    async forMergeRequest(mergeRequest: MergeRequestPipelineSubject, shas: readonly string[], page: { limit: number; offset: number }): Promise<{ pipelines: PipelineRow[]; total: number }> {
      const where = `merge_request_id = $1
          OR (project_id = $2 AND ref = $3 AND NOT tag AND merge_request_id IS NULL AND sha = ANY($4::text[]))`;
      const params = [mergeRequest.id, mergeRequest.source_project_id, mergeRequest.source_branch, [...shas]];
      const [{ rows }, { rows: count }] = await Promise.all([
        db.query<PipelineRow>(`SELECT * FROM ci_pipelines WHERE ${where} ORDER BY (source = 'merge_request_event') DESC, id DESC LIMIT $5 OFFSET $6`, [...params, page.limit, page.offset]),
        db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ci_pipelines WHERE ${where}`, params),
      ]);
      return { pipelines: rows, total: count[0]?.total ?? 0 };
    },

    /** Whether the merge request has a merge request pipeline for this head (GitLab creates no duplicate on a retried job). */
    async hasMergeRequestPipelineFor(mergeRequestId: number, headSha: string, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query(`SELECT 1 FROM ci_pipelines WHERE merge_request_id = $1 AND (sha = $2 OR source_sha = $2) LIMIT 1`, [mergeRequestId, headSha]);
      return rows.length > 0;
    },
  };
}
