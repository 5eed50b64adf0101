/** GitLab's Entities::CommitStatus. */
import type { CommitStatusRow } from '../../../domains/commit-statuses/commit-statuses.service.js';
import type { User } from '../../../domains/users/user.js';
import { userBasic, type UrlBuilder } from './users.js';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

export function commitStatusEntity(row: CommitStatusRow, users: Map<number, User>, urls: UrlBuilder) {
  const author = row.user_id === null ? undefined : users.get(row.user_id);
  return {
    id: row.id,
    sha: row.sha,
    ref: row.ref,
    status: row.status,
    name: row.name,
    target_url: row.target_url ?? null,
    description: row.description ?? null,
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    allow_failure: row.allow_failure,
    coverage: row.coverage,
    pipeline_id: row.pipeline_id,
    author: author ? userBasic(author, urls) : null,
  };
}
