/** All SQL of the links between pipelines (ci_sources_pipelines): upstream, downstream, hierarchy. */
import { on, type Queryable } from '../../../platform/db/database.js';
import type { PipelineSource } from '../config/types.js';
import type { PipelineRow } from '../pipeline.js';

export interface PipelineLink {
  pipelineId: number;
  projectId: number;
  sourcePipelineId: number;
  sourceProjectId: number;
  sourceJobId: number;
}

export interface ChainLink {
  id: number;
  project_id: number;
  ref: string;
  source: PipelineSource;
}

/** Recursion guard for the walks below: deeper than any hierarchy GitLab allows. */
const MAX_WALK = 1000;

export function createDownstreamRepository(db: Queryable) {
  return {
    async insertLink(link: PipelineLink, tx: Queryable): Promise<void> {
      await tx.query(
        `INSERT INTO ci_sources_pipelines (pipeline_id, project_id, source_pipeline_id, source_project_id, source_job_id) VALUES ($1, $2, $3, $4, $5)`,
        [link.pipelineId, link.projectId, link.sourcePipelineId, link.sourceProjectId, link.sourceJobId],
      );
    },

    /** The pipeline a bridge created, if any. */
    async downstreamOfBridge(bridgeId: number, tx?: Queryable): Promise<PipelineRow | null> {
      const { rows } = await on(db, tx).query<PipelineRow>(
        'SELECT p.* FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.pipeline_id WHERE s.source_job_id = $1',
        [bridgeId],
      );
      return rows[0] ?? null;
    },

    /** The downstream pipelines of these bridges, by bridge id. */
    async downstreamOfBridges(bridgeIds: readonly number[], tx?: Queryable): Promise<Map<number, PipelineRow>> {
      if (bridgeIds.length === 0) return new Map();
      const { rows } = await on(db, tx).query<PipelineRow & { source_job_id: number }>(
        'SELECT p.*, s.source_job_id FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.pipeline_id WHERE s.source_job_id = ANY($1::bigint[])',
        [[...new Set(bridgeIds)]],
      );
      return new Map(rows.map(({ source_job_id, ...pipeline }) => [Number(source_job_id), pipeline as PipelineRow]));
    },

    /** The pipeline that triggered this one and the bridge that did, or null for a pipeline nothing triggered. */
    async upstreamOf(pipelineId: number, tx?: Queryable): Promise<{ pipeline: PipelineRow; bridgeId: number | null } | null> {
      const { rows } = await on(db, tx).query<PipelineRow & { source_job_id: number | null }>(
        'SELECT p.*, s.source_job_id FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.source_pipeline_id WHERE s.pipeline_id = $1',
        [pipelineId],
      );
      const row = rows[0];
      if (!row) return null;
      const { source_job_id, ...pipeline } = row;
      return { pipeline: pipeline as PipelineRow, bridgeId: source_job_id === null ? null : Number(source_job_id) };
    },

    /** The pipelines this one triggered, oldest first. */
    async downstreamOf(pipelineId: number, tx?: Queryable): Promise<(PipelineRow & { source_job_id: number | null })[]> {
      const { rows } = await on(db, tx).query<PipelineRow & { source_job_id: number | null }>(
        'SELECT p.*, s.source_job_id FROM ci_sources_pipelines s JOIN ci_pipelines p ON p.id = s.pipeline_id WHERE s.source_pipeline_id = $1 ORDER BY p.id',
        [pipelineId],
      );
      return rows;
    },

    /** The pipeline and its upstreams up to the root, itself first (GitLab's self_and_upstreams). */
    async selfAndUpstreams(pipelineId: number, tx?: Queryable): Promise<ChainLink[]> {
      const { rows } = await on(db, tx).query<ChainLink & { depth: number }>(
        `WITH RECURSIVE chain(id, depth) AS (
           SELECT $1::bigint, 0
           UNION ALL
           SELECT s.source_pipeline_id, chain.depth + 1 FROM ci_sources_pipelines s JOIN chain ON s.pipeline_id = chain.id WHERE chain.depth < ${MAX_WALK}
         )
         SELECT p.id, p.project_id, p.ref, p.source, chain.depth FROM chain JOIN ci_pipelines p ON p.id = chain.id ORDER BY chain.depth`,
        [pipelineId],
      );
      return rows.map(({ depth: _depth, ...link }) => ({ ...link, project_id: Number(link.project_id), id: Number(link.id) }));
    },

    /** How many pipelines the whole tree holds, from its root down (GitLab's complete_hierarchy_count). */
    async hierarchySize(rootPipelineId: number, tx?: Queryable): Promise<number> {
      const { rows } = await on(db, tx).query<{ count: number }>(
        `WITH RECURSIVE tree(id, depth) AS (
           SELECT $1::bigint, 0
           UNION ALL
           SELECT s.pipeline_id, tree.depth + 1 FROM ci_sources_pipelines s JOIN tree ON s.source_pipeline_id = tree.id WHERE tree.depth < ${MAX_WALK}
         )
         SELECT count(*)::int AS count FROM tree`,
        [rootPipelineId],
      );
      return rows[0]!.count;
    },
  };
}

export type DownstreamRepository = ReturnType<typeof createDownstreamRepository>;
