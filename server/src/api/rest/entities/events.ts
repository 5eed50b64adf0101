import type { PushEventRow } from '../../../domains/pushes/push-events.repository.js';
import { classifyRef, isCreation, isDeletion } from '../../../domains/pushes/push.js';
import { userBasic, type UrlBuilder } from './users.js';

/** GitLab's event entity for a push (GET /projects/:id/events?action=pushed). */
export function pushEvent(event: PushEventRow, urls: UrlBuilder) {
  const update = { ref: event.ref, oldSha: event.old_sha, newSha: event.new_sha };
  const ref = classifyRef(event.ref);
  const created = isCreation(update);
  const removed = isDeletion(update);
  return {
    id: event.id,
    project_id: event.project_id,
    action_name: removed ? 'deleted' : created ? 'pushed new' : 'pushed to',
    target_id: null,
    target_iid: null,
    target_type: null,
    author_id: event.author.id,
    target_title: null,
    created_at: event.created_at.toISOString(),
    author: userBasic(event.author, urls),
    author_username: event.author.username,
    imported: false,
    imported_from: 'none',
    push_data: {
      commit_count: removed ? 0 : null,
      action: removed ? 'removed' : created ? 'created' : 'pushed',
      ref_type: ref.kind === 'other' ? 'branch' : ref.kind,
      commit_from: created ? null : event.old_sha,
      commit_to: removed ? null : event.new_sha,
      ref: ref.name,
      commit_title: null,
      ref_count: null,
    },
  };
}
