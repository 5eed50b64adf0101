/**
 * People and their places: the services over users, namespaces, groups, members, tokens,
 * sessions, labels, milestones, uploads and abuse reports (their repositories and the permission
 * function are built earlier, in accounts.ts).
 *
 * Built after the repository family: groups schedule the removal of the projects they delete,
 * labels, milestones and uploads check project access, and deleting a user removes their
 * personal projects. Built before merge requests and CI, which read groups, labels and milestones.
 */
import type { Config } from '../platform/config.js';
import type { Database } from '../platform/db/database.js';
import type { EventBus } from '../platform/events.js';
import { join } from 'node:path';
import { createUsersService } from '../domains/users/users.service.js';
import { createGroupsService } from '../domains/namespaces/groups.service.js';
import { createGroupTransferService } from '../domains/namespaces/group-transfer.service.js';
import { createMembersService } from '../domains/members/members.service.js';
import { createTokensService } from '../domains/tokens/tokens.service.js';
import { createSessionsService } from '../domains/sessions/sessions.service.js';
import { createPasswordAuthenticator } from '../domains/sessions/password-authenticator.js';
import { createLabelsRepository } from '../domains/labels/labels.repository.js';
import { createLabelsService } from '../domains/labels/labels.service.js';
import { createMilestonesRepository } from '../domains/milestones/milestones.repository.js';
import { createMilestonesService } from '../domains/milestones/milestones.service.js';
import { createUploadsRepository } from '../domains/uploads/uploads.repository.js';
import { createUploadsService } from '../domains/uploads/uploads.service.js';
import { createAbuseReportsRepository } from '../domains/abuse-reports/abuse-reports.repository.js';
import { createAbuseReportsService } from '../domains/abuse-reports/abuse-reports.service.js';
import type { Accounts } from './accounts.js';
import type { RepositoryFamily } from './repository.js';

export function composePeople(deps: {
  config: Pick<Config, 'dataDir'>;
  db: Database;
  events: EventBus;
  accounts: Accounts;
  repository: Pick<RepositoryFamily, 'projects' | 'projectsRepository'>;
}) {
  const { db, events } = deps;
  const { users, namespaces, membersRepository, tokensRepository, authorizer } = deps.accounts;
  const { projects, projectsRepository } = deps.repository;
  const groups = createGroupsService({
    db,
    namespaces,
    members: membersRepository,
    projects: projectsRepository,
    authorizer,
    onProjectsDeleted: projects.scheduleRemoval,
  });
  // project and group labels and milestones (domains/labels/, domains/milestones/)
  const labels = createLabelsService({ db, labels: createLabelsRepository(db), projects, groups, authorizer });
  const milestones = createMilestonesService({ db, milestones: createMilestonesRepository(db), projects, groups, authorizer });

  const passwords = createPasswordAuthenticator({ db, users });
  const tokens = createTokensService({ tokens: tokensRepository, users, events });
  // A revocation in any process evicts the token from every process's auth cache.
  events.subscribe('token.revoked', (event) => tokens.forget({ tokenId: event.payload.tokenId }));
  events.subscribe('user.changed', (event) => tokens.forget({ userId: event.payload.userId }));

  const services = {
    users: createUsersService({
      db,
      events,
      users,
      namespaces,
      forgetAuthentications: (userId) => tokens.forget({ userId }),
      personalProjects: {
        idsIn: (namespaceIds, tx) => projectsRepository.idsInNamespaces(namespaceIds, tx),
        remove: async (projectIds, tx) => {
          await projectsRepository.markPendingDelete(projectIds, tx);
          await projects.scheduleRemoval(projectIds, tx);
        },
      },
    }),
    groups,
    // moving a group and its subtree under another parent (POST /groups/:id/transfer)
    groupTransfer: createGroupTransferService({ db, groups, namespaces, authorizer }),
    members: createMembersService({ members: membersRepository, users, authorizer }),
    tokens,
    sessions: createSessionsService({ db, users, passwords }),
    passwords,
    // files attached to notes and descriptions, stored under <dataDir>/uploads (domains/uploads/)
    uploads: createUploadsService({ uploads: createUploadsRepository(db), projects, authorizer, root: join(deps.config.dataDir, 'uploads') }),
    labels,
    milestones,
    // users reported to the administrators (domains/abuse-reports/)
    abuseReports: createAbuseReportsService({ reports: createAbuseReportsRepository(db), users }),
    namespaces,
    usersRepository: users,
  };
  return { services, groups, labels, milestones };
}

export type PeopleFamily = ReturnType<typeof composePeople>;
