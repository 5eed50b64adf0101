/**
 * Projects and their git repositories: projects, repository access, files, commits, branches,
 * tags, protected branches and tags, push rules, pushes and forks.
 *
 * Built after the accounts (every write checks the permission function) and before every other
 * family: groups remove projects, merge requests push and merge through `pushes`, suggestions
 * write commits through the commit writer, pipelines read files through repository access.
 * Inside, the order follows the dependencies: pushes need push rules and collaboration, repository
 * access needs collaboration, the commit writer needs pushes, the files service the writer.
 */
import type { Database } from '../platform/db/database.js';
import type { WriteWatch } from '../platform/db/write-watch.js';
import type { EventBus } from '../platform/events.js';
import type { JobQueue } from '../platform/queue.js';
import type { RepositoryStorage } from '../domains/projects/repository-storage.js';
import { createProjectsRepository } from '../domains/projects/projects.repository.js';
import { cacheProjectLookups } from '../domains/projects/project-lookup-cache.js';
import { createProjectsService, REMOVE_REPOSITORY_JOB } from '../domains/projects/projects.service.js';
import { createProjectTransferService } from '../domains/projects/project-transfer.service.js';
import { createProjectAvatarService } from '../domains/projects/project-avatar.service.js';
import { createProtectedBranchesRepository } from '../domains/protected-branches/protected-branches.repository.js';
import { createProtectedTagsRepository } from '../domains/protected-tags/protected-tags.repository.js';
import { createPushesService } from '../domains/pushes/pushes.service.js';
import { createPushEventsRepository } from '../domains/pushes/push-events.repository.js';
import { createCollaboration } from '../domains/merge-requests/collaboration.service.js';
import { createRepositoryAccess } from '../domains/repository/repository-access.js';
import { createBranchesService } from '../domains/repository/branches.service.js';
import { createTagsService } from '../domains/repository/tags.service.js';
import { createRepositoryReadsService } from '../domains/repository/repository-reads.service.js';
import { createProtectedBranchesService } from '../domains/repository/protected-branches.service.js';
import { createProtectedTagsService } from '../domains/repository/protected-tags.service.js';
import { createCommitWriter } from '../domains/repository/commit-writer.js';
import { createFilesService } from '../domains/repository/files.service.js';
import { createCommitsService } from '../domains/repository/commits.service.js';
import { createCommitPicksService } from '../domains/repository/commit-picks.service.js';
import { createCompareService } from '../domains/repository/compare.service.js';
import { createPushRulesService } from '../domains/push-rules/push-rules.service.js';
import { createPushRulesRepository } from '../domains/push-rules/push-rules.repository.js';
import { createForksRepository } from '../domains/forks/forks.repository.js';
import { createForksService } from '../domains/forks/forks.service.js';
import type { Accounts } from './accounts.js';

export function composeRepository(deps: {
  db: Database;
  writeWatch: WriteWatch;
  queue: JobQueue;
  events: EventBus;
  storage: RepositoryStorage;
  accounts: Accounts;
}) {
  const { db, writeWatch, queue, events, storage } = deps;
  const { users, namespaces, membersRepository, authorizer } = deps.accounts;
  const uncachedProjects = createProjectsRepository(db);
  const projectsRepository = { ...uncachedProjects, ...cacheProjectLookups(uncachedProjects, writeWatch) };
  const protectedBranches = createProtectedBranchesRepository(db);
  const protectedTags = createProtectedTagsRepository(db);
  const forksRepository = createForksRepository(db);

  const projects = createProjectsService({
    db,
    projects: projectsRepository,
    namespaces,
    protectedBranches,
    members: membersRepository,
    storage,
    authorizer,
    queue,
    events,
  });
  queue.register(REMOVE_REPOSITORY_JOB, async (payload) => projects.removeRepository(payload.projectId));

  // merge requests allowing collaboration: a fork's branch open to the target's mergers (every branch-writing surface)
  const collaboration = createCollaboration({ db, projects: projectsRepository, authorizer, protectedBranches });
  const pushRules = createPushRulesService({ pushRules: createPushRulesRepository(db), projects, authorizer, storage });
  const pushes = createPushesService({ db, projects: projectsRepository, protectedBranches, protectedTags, storage, authorizer, events, collaboration, pushRules });
  const repositoryAccess = createRepositoryAccess({ projects, authorizer, storage, collaboration });
  const commitWriter = createCommitWriter({ access: repositoryAccess, protectedBranches, pushes, pushRules });
  const files = createFilesService({ access: repositoryAccess, writer: commitWriter });

  const services = {
    projects,
    // moving a project to another namespace (PUT /projects/:id/transfer)
    projectTransfer: createProjectTransferService({ db, projects, projectRows: projectsRepository, namespaces, authorizer }),
    // the project avatar (PUT /projects/:id with a multipart `avatar`; served at the entity's avatar_url)
    projectAvatars: createProjectAvatarService({ db, projects, rows: projectsRepository, authorizer }),
    pushes,
    collaboration,
    pushRules,
    branches: createBranchesService({
      pushRules,
      access: repositoryAccess,
      protectedBranches,
      protectedTags,
      pushes,
      // GitLab's Branches::CreateService on an empty repository: an empty README.md on the default branch first.
      createDefaultBranch: async (actor, projectId, branch) => void (await files.create(actor, projectId, 'README.md', { branch, message: 'Add README.md', content: Buffer.alloc(0) })),
    }),
    tags: createTagsService({ access: repositoryAccess, protectedBranches, protectedTags, pushes }),
    repositoryReads: createRepositoryReadsService({ access: repositoryAccess }),
    branchProtection: createProtectedBranchesService({ access: repositoryAccess, db, protectedBranches, users, namespaces }),
    tagProtection: createProtectedTagsService({ access: repositoryAccess, db, protectedTags, users, namespaces }),
    files,
    commits: createCommitsService({ access: repositoryAccess, writer: commitWriter }),
    commitPicks: createCommitPicksService({ access: repositoryAccess, writer: commitWriter }),
    compare: createCompareService({ access: repositoryAccess, forks: forksRepository }),
    forks: createForksService({ db, projects, projectsRepository, namespaces, protectedBranches, storage, authorizer, events }),
    pushEvents: createPushEventsRepository(db),
    forksRepository,
    protectedBranches,
    storage,
  };
  return { services, projects, projectsRepository, protectedBranches, protectedTags, collaboration, pushes, repositoryAccess, commitWriter };
}

export type RepositoryFamily = ReturnType<typeof composeRepository>;
