/**
 * The repositories every family reads (users, namespaces, members, tokens) and the one
 * permission function over them. Built straight after the platform: the repository, people,
 * merge request and CI families all take them. The services over them are in people.ts.
 */
import { createAuthorizer } from '../auth/authorizer.js';
import type { Database } from '../platform/db/database.js';
import { createUsersRepository } from '../domains/users/users.repository.js';
import { createNamespacesRepository } from '../domains/namespaces/namespaces.repository.js';
import { createMembersRepository } from '../domains/members/members.repository.js';
import { createTokensRepository } from '../domains/tokens/tokens.repository.js';
import { createJobTokenScopeRepository } from '../domains/runner-protocol/job-token-scope.repository.js';

export function composeAccounts(deps: { db: Database }) {
  const { db } = deps;
  const users = createUsersRepository(db);
  const namespaces = createNamespacesRepository(db);
  const membersRepository = createMembersRepository(db);
  const tokensRepository = createTokensRepository(db);
  const jobTokenScope = createJobTokenScopeRepository(db);
  const authorizer = createAuthorizer({ members: membersRepository, jobTokenAllowlist: jobTokenScope });
  return { users, namespaces, membersRepository, tokensRepository, authorizer, jobTokenScope };
}

export type Accounts = ReturnType<typeof composeAccounts>;
