/**
 * Merge requests and their discussions: merge requests, mergeability, merging, versions, system
 * notes, suggestions, notes, outdated discussions, approvals, description versions and the
 * Markdown renderer that notes and descriptions use.
 *
 * Built after the repository and people families (merges push, suggestions write commits, the
 * entity reads labels and milestones) and before CI, which reads mergeability. Mergeability reads
 * head pipelines in turn: that one call back (`headPipelines`) is bound by app.ts to the CI family
 * built next, and is only called once the server runs.
 *
 * Reactions on one event run in the order they are registered, so the order here is behaviour:
 * on `repository.pushed` the new version is recorded before CI creates the push's pipeline (CI
 * registers after this family); on `merge_request.version_recorded` outdated threads are traced,
 * then system notes, then approvals are reset, then (CI) the merge request pipeline is created;
 * on `merge_request.event_recorded` system notes come before approvals.
 */
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { WriteWatch } from '../platform/db/write-watch.js';
import type { EventBus } from '../platform/events.js';
import type { Logger } from '../platform/logger.js';
import type { JobQueue } from '../platform/queue.js';
import type { RepositoryStorage } from '../domains/projects/repository-storage.js';
import type { MergeRequest } from '../domains/merge-requests/merge-request.js';
import type { PipelineRow } from '../domains/pipelines/pipeline.js';
import type { Project } from '../domains/projects/project.js';
import { cacheProtectedBranches } from '../api/graphql/widget/protected-branches-cache.js';
import { createMergeRequestsDomain, REFRESH_JOB } from '../domains/merge-requests/index.js';
import { createMergeRequestsRepository } from '../domains/merge-requests/merge-requests.repository.js';
import { crashHook, createMergingDomain, POST_MERGE_JOB, REBASE_JOB } from '../domains/merge-requests/merging/index.js';
import { createApprovalsDomain } from '../domains/approvals/index.js';
import { createAutoMergeRepository, createAutoMergeService, EVALUATE_JOB, NO_MERGE_TRAINS, type MergeTrainsPort } from '../domains/auto-merge/index.js';
import { createCodeOwnersRepository, createCodeOwnersService, createCodeOwnersView } from '../domains/code-owners/index.js';
import { createNotesDomain } from '../domains/notes/index.js';
import { createSystemNotes, SYSTEM_NOTES_JOB } from '../domains/notes/system-notes.service.js';
import { createSystemNotesRepository } from '../domains/notes/system-notes.repository.js';
import { createNoteAccess } from '../domains/notes/note-access.js';
import { createOutdatedDiscussions, OUTDATED_DISCUSSIONS_JOB } from '../domains/notes/outdated-discussions.service.js';
import { createOutdatedDiscussionsRepository } from '../domains/notes/outdated-discussions.repository.js';
import { createNotesRepository } from '../domains/notes/notes.repository.js';
import { createAwardEmojiRepository } from '../domains/notes/award-emoji.repository.js';
import { createSuggestionsRepository } from '../domains/suggestions/suggestions.repository.js';
import { createSuggestionsService, SUGGESTIONS_JOB } from '../domains/suggestions/suggestions.service.js';
import { createDescriptionVersionsRepository } from '../domains/description-versions/description-versions.repository.js';
import { createDescriptionVersionsService } from '../domains/description-versions/description-versions.service.js';
import { createMarkdownService } from '../markdown/markdown.service.js';
import { createReferenceResolver } from '../markdown/reference-resolver.js';
import type { Accounts } from './accounts.js';
import type { RepositoryFamily } from './repository.js';
import type { PeopleFamily } from './people.js';

export function composeMergeRequests(deps: {
  config: Pick<Config, 'externalUrl' | 'testCrashAt'>;
  db: Database;
  logger: Logger;
  queue: JobQueue;
  events: EventBus;
  writeWatch: WriteWatch;
  storage: RepositoryStorage;
  accounts: Accounts;
  repository: RepositoryFamily;
  people: PeopleFamily;
  /** each merge request's head pipeline, from the CI family (built after this one; called only once running) */
  headPipelines: (mergeRequests: readonly MergeRequest[]) => Promise<Map<number, PipelineRow>>;
  /** whether a merge request has had any pipeline (GitLab's has_ci?), from the CI family (called only once running) */
  hasPipelines: (opened: { project: Project; mergeRequest: MergeRequest }) => Promise<boolean>;
  /** merge trains, for auto-merge's train strategies (app.ts passes the merge trains family's; none without it) */
  mergeTrains?: MergeTrainsPort;
}) {
  const { db, logger, queue, events, writeWatch, storage } = deps;
  const { users, namespaces, authorizer } = deps.accounts;
  const { projects, projectsRepository, protectedBranches, pushes, collaboration, repositoryAccess, commitWriter } = deps.repository;
  const { groups, labels, milestones } = deps.people;

  // The notes domain needs merge requests and mergeability needs thread counts: the counts come
  // straight from the notes repositories, so the two domains are built without a cycle.
  const notesRepository = createNotesRepository(db);
  const awardEmojiRepository = createAwardEmojiRepository(db);
  // per merge request id: unresolved threads (DISCUSSIONS_NOT_RESOLVED), votes and user_notes_count
  const discussionStats = {
    unresolvedThreadCounts: notesRepository.unresolvedThreadCounts,
    votes: awardEmojiRepository.votes,
    userNotesCounts: notesRepository.userNotesCounts,
  };
  const mergeRequestsDomain = createMergeRequestsDomain({
    db,
    logger,
    queue,
    authorizer,
    projects,
    // the entity's canMerge reads the rules per request: cached until a rule is written
    protectedBranches: { ...protectedBranches, ...cacheProtectedBranches(protectedBranches, writeWatch) },
    storage,
    events,
    unresolvedDiscussions: discussionStats.unresolvedThreadCounts,
    // CI_MUST_PASS / CI_STILL_RUNNING read each merge request's pipeline (built by the CI family; called only once running)
    headPipelineStatuses: async (mergeRequests) => new Map([...(await deps.headPipelines(mergeRequests))].map(([id, pipeline]) => [id, pipeline.status])),
    // built below from the merge request service; read only when a check runs
    approvalFacts: (mergeRequests) => approvalsDomain.mergeabilityFacts(mergeRequests),
    discussionStats,
    metadata: { labels, milestones },
    watch: writeWatch,
  });
  const noteAccess = createNoteAccess({ mergeRequests: mergeRequestsDomain.mergeRequests, notes: notesRepository });
  // Pushes return at once; new versions and mergeability rechecks happen in a job.
  queue.register(REFRESH_JOB, (payload) => mergeRequestsDomain.mergeRequestVersions.refresh(payload));
  events.react('repository.pushed', (event, tx) => mergeRequestsDomain.mergeRequestVersions.onPushed(event, tx));
  // A merged request unblocks its dependants: their pages hear it too.
  events.subscribe('merge_request.changed', (event) => mergeRequestsDomain.mergeability.onChanged(event));
  // Diff threads follow their lines onto every new version, or become outdated (a job per version).
  const outdatedDiscussions = createOutdatedDiscussions({
    db,
    repository: createOutdatedDiscussionsRepository(db),
    storage,
    queue,
    events,
    access: noteAccess,
  });
  queue.register(OUTDATED_DISCUSSIONS_JOB, async (payload) => void (await outdatedDiscussions.run(payload)));
  events.react('merge_request.version_recorded', (event, tx) => outdatedDiscussions.onVersionRecorded(event, tx));
  // System notes are written when their event happens (in its transaction), or for a version by a job enqueued there.
  const systemNotes = createSystemNotes({
    db,
    queue,
    mergeRequests: createMergeRequestsRepository(db),
    systemNotes: createSystemNotesRepository(db),
    notes: notesRepository,
    storage,
  });
  queue.register(SYSTEM_NOTES_JOB, (payload) => systemNotes.run(payload));
  events.react('merge_request.event_recorded', (event, tx) => systemNotes.onEventRecorded(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => systemNotes.onVersionRecorded(event, tx));
  // CODEOWNERS: parsed once per project and commit, owners resolved per kind (domains/code-owners/).
  const codeOwners = createCodeOwnersService({ repository: createCodeOwnersRepository(db), storage });
  // Approvals: rules, settings, approving, reviews (domains/approvals/); a new merge request gets
  // the project's rules and a push removes the approvals it invalidates, in their transactions.
  const approvalsDomain = createApprovalsDomain({
    db,
    codeOwnerFiles: codeOwners,
    authorizer,
    storage,
    projects,
    projectRows: projectsRepository,
    groups,
    namespaces,
    users,
    mergeRequestsService: mergeRequestsDomain.mergeRequests,
    mergeRequests: mergeRequestsDomain.mergeRequestsRepository,
    mergeability: mergeRequestsDomain.mergeability,
  });
  events.react('merge_request.event_recorded', (event, tx) => approvalsDomain.reactions.onEventRecorded(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => approvalsDomain.reactions.onVersionRecorded(event, tx));
  const mergingDomain = createMergingDomain({
    db,
    logger,
    queue,
    events,
    authorizer,
    projects: projectsRepository,
    protectedBranches,
    storage,
    pushes,
    mergeRequestsService: mergeRequestsDomain.mergeRequests,
    versions: mergeRequestsDomain.mergeRequestVersions,
    mergeability: mergeRequestsDomain.mergeability,
    externalUrl: deps.config.externalUrl,
    onStep: crashHook(deps.config.testCrashAt, logger),
    collaboration,
  });
  queue.register(REBASE_JOB, (payload, job) => mergingDomain.rebasing.run(payload, job));
  queue.register(POST_MERGE_JOB, (payload) => mergingDomain.runPostMergeJob(payload));
  // auto-merge: every change the page hears enqueues an evaluation in its transaction (domains/auto-merge/)
  const autoMerge = createAutoMergeService({
    db,
    repository: createAutoMergeRepository(db),
    queue,
    events,
    logger,
    mergeRequestsService: mergeRequestsDomain.mergeRequests,
    mergeRequests: createMergeRequestsRepository(db, { events }),
    projects: projectsRepository,
    merging: mergingDomain.merging,
    mergeability: mergeRequestsDomain.mergeability,
    headPipelineStatuses: async (mergeRequests) => new Map([...(await deps.headPipelines(mergeRequests))].map(([id, pipeline]) => [id, pipeline.status])),
    hasPipelines: (opened) => deps.hasPipelines(opened),
    trains: deps.mergeTrains ?? NO_MERGE_TRAINS,
  });
  queue.register(EVALUATE_JOB, (payload) => autoMerge.runEvaluation(payload));
  events.react('merge_request.changed', (event, tx) => autoMerge.onChanged(event, tx));
  events.react('merge_request.version_recorded', (event, tx) => autoMerge.onVersionRecorded(event, tx));
  // suggested changes in diff comments: shown with the notes, applied as commits (domains/suggestions/)
  const suggestions = createSuggestionsService({
    suggestions: createSuggestionsRepository(db),
    mergeRequests: mergeRequestsDomain.mergeRequests,
    projects,
    access: repositoryAccess,
    protectedBranches,
    writer: commitWriter,
    storage,
  });
  queue.register(SUGGESTIONS_JOB, () => suggestions.catchUp());

  const services = {
    ...mergeRequestsDomain,
    approvals: approvalsDomain.approvals,
    approvalRules: approvalsDomain.rules,
    approvalSettings: approvalsDomain.settings,
    reviews: approvalsDomain.reviews,
    approvalLookups: approvalsDomain.lookups,
    // CODEOWNERS of a file at a ref, for the file view (the approvals domain takes the same service)
    codeOwnersOfFiles: createCodeOwnersView({ access: repositoryAccess, codeOwners }),
    approvalsRepository: approvalsDomain.repository,
    ...mergingDomain,
    autoMerge,
    // discussions: notes, threads, drafts, award emoji (domains/notes/)
    ...createNotesDomain({ db, notes: notesRepository, awards: awardEmojiRepository, access: noteAccess, storage, events, suggestions }),
    discussionStats,
    noteAccess,
    notesRepository,
    suggestions,
    // diff threads traced onto new versions, outdated threads' lines (domains/notes/outdated-discussions.service.ts)
    outdatedDiscussions,
    // the history of merge request descriptions (domains/description-versions/)
    descriptionVersions: createDescriptionVersionsService({ mergeRequests: mergeRequestsDomain.mergeRequests, versions: createDescriptionVersionsRepository(db) }),
    markdown: createMarkdownService({ references: createReferenceResolver({ db, projects, authorizer }) }),
  };
  return { services, mergeability: mergeRequestsDomain.mergeability };
}

export type MergeRequestFamily = ReturnType<typeof composeMergeRequests>;
