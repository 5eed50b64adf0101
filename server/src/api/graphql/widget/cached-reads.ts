import { BLOCKER_TABLES, MERGE_REQUEST_TABLES } from '../../../domains/merge-requests/cached-reads.js';
import { cachedRead } from '../../../platform/db/cached-read.js';
import type { WriteWatch } from '../../../platform/db/write-watch.js';
import type { WidgetDeps } from './request-scope.js';

/** The evaluation reads blocker states and unresolved threads; the request and project come in as arguments. */
// ci_pipelines: CI_MUST_PASS and CI_STILL_RUNNING read the merge request's pipeline
const MERGEABILITY_TABLES = ['merge_requests', 'merge_request_blocks', 'notes', 'ci_pipelines'];

/**
 * The widget is the most read thing in the product (every open merge request page queries
 * it and hears every change), and between changes its answer stays the same. Its database
 * reads are kept per process until a table they read is written (`platform/db/cached-read.ts`),
 * so a warm widget query makes no round trip (npm run bench: graphql-widget). Permissions are
 * still decided per caller on every query, from the cached project lookup.
 */
export function cacheWidgetReads(deps: WidgetDeps, watch: Pick<WriteWatch, 'generation'>): WidgetDeps {
  const { mergeRequests, mergeability } = deps;
  return {
    ...deps,
    mergeRequests: {
      findByIid: cachedRead(watch, (projectId: number, iid: number) => mergeRequests.findByIid(projectId, iid), {
        tables: MERGE_REQUEST_TABLES,
        key: (projectId, iid) => `${projectId}!${iid}`,
        keep: (found) => found !== undefined,
        copy: (found) => found && { ...found },
      }),
      findById: cachedRead(watch, (id: number) => mergeRequests.findById(id), {
        tables: MERGE_REQUEST_TABLES,
        key: (id) => String(id),
        keep: (found) => found !== undefined,
        copy: (found) => found && { ...found },
      }),
      usersByIds: cachedRead(watch, (ids: number[]) => mergeRequests.usersByIds(ids), {
        tables: ['users'],
        key: (ids) => ids.join(','),
        copy: (found) => new Map(found),
      }),
    },
    mergeability: {
      // Keyed by the whole request and project as given: an evaluation of a row read before a
      // write is only ever handed to a caller holding that same row.
      evaluate: cachedRead(watch, async (mergeRequest, project) => mergeability.evaluate(mergeRequest, project), {
        tables: MERGEABILITY_TABLES,
        key: (mergeRequest, project) => JSON.stringify([mergeRequest, project]),
      }),
    },
    blockers: cachedRead(watch, deps.blockers, {
      tables: BLOCKER_TABLES,
      key: (actor, opened) => `${actor.user?.id ?? ''} ${opened.mergeRequest.id}`,
      copy: (found) => ({ visible: found.visible.map((blocker) => ({ ...blocker })), hiddenCount: found.hiddenCount }),
    }),
    mergeOngoing: cachedRead(watch, deps.mergeOngoing, { tables: ['merge_intents'], key: String }),
  };
}
