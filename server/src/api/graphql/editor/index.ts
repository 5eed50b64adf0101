/**
 * The editor part of the GraphQL API (schema.ts): threads, notes and the review mutations
 * GitLab's editor extensions send. `withEditor` adds its resolvers to the widget's.
 */
import type { EditorDeps } from './deps.js';
import { createMutationResolvers } from './mutations.js';
import { createNoteResolvers } from './notes.resolvers.js';
import { editorScalars } from './scalars.js';

export { editorSchema } from './schema.js';
export type { EditorDeps } from './deps.js';

type ResolverMap = Record<string, object>;

export function withEditor<R extends ResolverMap>(base: R, deps: EditorDeps): ResolverMap {
  const notes = createNoteResolvers(deps);
  const { Mutation } = createMutationResolvers(deps);
  const userFields = (base as { UserCore?: object }).UserCore ?? {};
  return {
    ...base,
    ...editorScalars,
    Query: { ...(base.Query ?? {}), ...notes.Query },
    MergeRequest: { ...(base.MergeRequest ?? {}), ...notes.MergeRequest },
    MergeRequestPermissions: { ...(base.MergeRequestPermissions ?? {}), ...notes.MergeRequestPermissions },
    // assignees and reviewers are users with GitLab's type names
    MergeRequestAssignee: userFields,
    MergeRequestReviewer: userFields,
    Discussion: notes.Discussion,
    Note: notes.Note,
    DiffPosition: notes.DiffPosition,
    Mutation,
  };
}
