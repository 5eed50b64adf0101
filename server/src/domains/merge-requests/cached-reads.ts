import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { cachedRead } from '../../platform/db/cached-read.js';
import type { Queryable } from '../../platform/db/database.js';
import { WATCHED_TABLES, type WriteWatch } from '../../platform/db/write-watch.js';
import { buildListQuery, type MergeRequestListFilter, type Viewer } from './list-filter.js';
import type { MergeRequest } from './merge-request.js';
import type { DiscussionStats, MergeRequestViewsMetadata } from './merge-request-views.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';
import type { OpenedMergeRequest } from './merge-requests.service.js';
import type { MergeabilityService } from './mergeability/index.js';

/** What a merge request row is read from (merge-requests.repository.ts joins the project and its route). */
export const MERGE_REQUEST_TABLES = ['merge_requests', 'merge_request_diffs', 'projects', 'routes', 'namespaces'];
/** Blockers: the links, the blocking requests, and whether the caller may see their projects. */
export const BLOCKER_TABLES = [...MERGE_REQUEST_TABLES, 'merge_request_blocks', 'project_members', 'group_members'];
/** A user's effective access level to a project (members.repository.ts's effectiveAccessLevelSql). */
const ACCESS_TABLES = ['project_members', 'group_members', 'projects', 'namespaces', 'users'];
/** evaluateMany: project settings, blocker states and unresolved threads of the requests given. */
// ci_pipelines: CI_MUST_PASS and CI_STILL_RUNNING read the merge request's pipeline
const MERGEABILITY_TABLES = [...MERGE_REQUEST_TABLES, 'merge_request_blocks', 'notes', 'discussions', 'ci_pipelines'];
/** A list page: the rows, the viewer's visibility of their projects, and the assignee/reviewer filters. */
const LIST_TABLES = [...BLOCKER_TABLES, 'merge_request_assignees', 'merge_request_reviewers', 'users'];

const copyUserMap = <K, V extends object>(found: Map<K, V>) => new Map([...found].map(([key, value]) => [key, { ...value }]));
const copyUserLists = <K, V extends object>(found: Map<K, V[]>) => new Map([...found].map(([key, list]) => [key, list.map((value) => ({ ...value }))]));

/** Every table a statement reads with FROM or JOIN, lower case. */
function tablesRead(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)/gi)].map((match) => match[1]!.toLowerCase());
}
const watched = new Set<string>(WATCHED_TABLES);

type Repository = Pick<MergeRequestsRepository, 'findByIid' | 'list' | 'assignees' | 'reviewers' | 'usersByIds' | 'authorHasMerged'>;

/**
 * The merge request REST reads (GET …/merge_requests/:iid and the lists), kept per process
 * until a table they read is written (`platform/db/cached-read.ts`), as the merge widget's are
 * (`api/graphql/widget/cached-reads.ts`): GitLab's clients poll these endpoints, and between
 * changes their answers stay the same, so a warm request makes no database round trip.
 * Permissions are still decided per caller on every request (the project lookup is cached
 * per project and user).
 */
export function cacheMergeRequestReads<R extends Repository>(repository: R, watch: Pick<WriteWatch, 'generation'>): R {
  const findByIid = cachedRead(watch, (projectId: number, iid: number) => repository.findByIid(projectId, iid), {
      tables: MERGE_REQUEST_TABLES,
      key: (projectId, iid) => `${projectId}!${iid}`,
      keep: (found) => found !== undefined,
      copy: (found) => found && { ...found },
    });
  const assignees = cachedRead(watch, (ids: number[]) => repository.assignees(ids), { tables: ['merge_request_assignees', 'users'], key: (ids) => ids.join(','), copy: copyUserLists });
  const reviewers = cachedRead(watch, (ids: number[]) => repository.reviewers(ids), { tables: ['merge_request_reviewers', 'users'], key: (ids) => ids.join(','), copy: copyUserLists });
  return {
    ...repository,
    // inside a transaction a read goes to the database, on the transaction
    findByIid: (projectId: number, iid: number, tx?: Queryable) => (tx ? repository.findByIid(projectId, iid, tx) : findByIid(projectId, iid)),
    list: cachedList(repository, watch),
    // Inside a transaction a read goes to the database on it: it must see the transaction's own
    // writes, and on PGlite a statement outside an open transaction waits for it to end.
    assignees: (ids: number[], tx?: Queryable) => (tx ? repository.assignees(ids, tx) : assignees(ids)),
    reviewers: (ids: number[], tx?: Queryable) => (tx ? repository.reviewers(ids, tx) : reviewers(ids)),
    usersByIds: cachedRead(watch, (ids: number[]) => repository.usersByIds(ids), { tables: ['users'], key: (ids) => ids.join(','), copy: copyUserMap }),
    authorHasMerged: cachedRead(watch, (authorId: number, projectId: number) => repository.authorHasMerged(authorId, projectId), {
      tables: ['merge_requests'],
      key: (authorId, projectId) => `${authorId} ${projectId}`,
    }),
  };
}

/**
 * List pages by filter, viewer and page. Only a filter whose SQL reads watched tables alone is
 * kept (a filter on a table no trigger announces would otherwise answer stale rows).
 */
function cachedList(repository: Pick<MergeRequestsRepository, 'list'>, watch: Pick<WriteWatch, 'generation'>): MergeRequestsRepository['list'] {
  const cached = cachedRead(watch, (filter: MergeRequestListFilter, viewer: Viewer, page: { limit: number; offset: number }) => repository.list(filter, viewer, page), {
    tables: LIST_TABLES,
    key: (filter, viewer, page) => JSON.stringify([filter, viewer, page]),
    copy: (found) => ({ mergeRequests: found.mergeRequests.map((mr) => ({ ...mr })), total: found.total }),
  });
  return (filter, viewer, page) => (listReadsWatchedOnly(filter, viewer) ? cached(filter, viewer, page) : repository.list(filter, viewer, page));
}

/** True when a list's SQL reads only tables whose writes move the watch: only then may its answer be kept. */
export function listReadsWatchedOnly(filter: MergeRequestListFilter, viewer: Viewer): boolean {
  return tablesRead(buildListQuery(filter, viewer).where).every((table) => watched.has(table));
}

type Mergeability = Pick<MergeabilityService, 'evaluateMany'> & { blocks: Pick<MergeabilityService['blocks'], 'visibleBlockers'> };

/** evaluateMany and the caller's visible blockers, cached like the widget's (keyed by the rows as given). */
export function cacheMergeabilityReads(mergeability: Mergeability, watch: Pick<WriteWatch, 'generation'>): Mergeability {
  return {
    // Keyed by the rows themselves: an evaluation of a row read before a write is only handed to a caller holding that row.
    evaluateMany: cachedRead(watch, (list: readonly MergeRequest[]) => mergeability.evaluateMany(list), {
      tables: MERGEABILITY_TABLES,
      key: (list) => JSON.stringify(list),
    }),
    blocks: {
      visibleBlockers: cachedRead(watch, (actor: Actor, opened: OpenedMergeRequest) => mergeability.blocks.visibleBlockers(actor, opened), {
        tables: [...BLOCKER_TABLES, 'users'],
        key: (actor, opened) => `${actor.user?.id ?? ''} ${opened.mergeRequest.id}`,
        copy: (found) => ({ visible: found.visible.map((blocker) => ({ ...blocker })), hiddenCount: found.hiddenCount }),
      }),
    },
  };
}

/** Votes and notes counts per merge request. */
export function cacheDiscussionStats(stats: DiscussionStats, watch: Pick<WriteWatch, 'generation'>): DiscussionStats {
  return {
    votes: cachedRead(watch, (ids: readonly number[]) => stats.votes(ids), {
      tables: ['award_emoji'],
      key: (ids) => ids.join(','),
      copy: (found) => new Map([...found].map(([id, votes]) => [id, { ...votes }])),
    }),
    userNotesCounts: cachedRead(watch, (ids: readonly number[], options: { includeInternal: boolean }) => stats.userNotesCounts(ids, options), {
      tables: ['notes', 'discussions'],
      key: (ids, options) => `${options.includeInternal} ${ids.join(',')}`,
      copy: (found) => new Map(found),
    }),
  };
}

/** Labels of merge requests (with the target project's priorities) and milestones by id, for the entity. */
export function cacheMetadataReads(metadata: MergeRequestViewsMetadata, watch: Pick<WriteWatch, 'generation'>): MergeRequestViewsMetadata {
  return {
    labels: {
      forMergeRequests: cachedRead(watch, (ids: readonly number[]) => metadata.labels.forMergeRequests(ids), {
        tables: ['merge_request_labels', 'merge_requests', 'labels', 'label_priorities'],
        key: (ids) => ids.join(','),
        copy: copyUserLists,
      }),
    },
    milestones: {
      // the owner's path for web_url comes from routes
      byIds: cachedRead(watch, (ids: number[]) => metadata.milestones.byIds(ids), { tables: ['milestones', 'routes'], key: (ids) => ids.join(','), copy: copyUserMap }),
    },
  };
}

/**
 * A user's effective access level to a project, per (user, project) (the entity's
 * first_contribution asks it for the author). The per-request memo on the actor still applies.
 */
export function cacheAccessLevels<A extends Pick<Authorizer, 'accessLevel'>>(authorizer: A, watch: Pick<WriteWatch, 'generation'>): A {
  const cached = cachedRead(watch, (actor: Actor, subject: { project: OpenedMergeRequest['project'] }) => authorizer.accessLevel(actor, subject), {
    tables: ACCESS_TABLES,
    key: (actor, subject) => `${actor.user?.id ?? ''} ${subject.project.id}`,
  });
  return {
    ...authorizer,
    accessLevel: (actor: Actor, subject: Parameters<Authorizer['accessLevel']>[1]) => ('project' in subject && actor.user ? cached(actor, subject) : authorizer.accessLevel(actor, subject)),
  };
}
