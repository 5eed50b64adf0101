/**
 * Reading threads and notes: MergeRequest.discussions, Query.note, and the Discussion, Note,
 * DiffPosition and NotePermissions types. Reads go through the discussions and notes services
 * (404 for what the caller may not see becomes null here), and a note's permissions come from
 * the one per-note rule (domains/notes/note-permissions.ts).
 */
import DataLoader from 'dataloader';
import { positionFilePath } from '../../../domains/notes/position.js';
import type { User } from '../../../domains/users/user.js';
import { decodeCursor, threadState } from '../../../domains/notes/note-rules.js';
import { notePermissions, mayCommentOn } from '../../../domains/notes/note-permissions.js';
import { isResolvable, type Discussion, type Note } from '../../../domains/notes/note.js';
import { nullIfNotFound } from '../../../platform/errors.js';
import { globalId, recordId, type ParsedGlobalId } from '../global-id.js';
import type { GraphqlContext } from '../resolvers.js';
import type { MergeRequestNode } from '../widget/request-scope.js';
import type { DiscussionNode, EditorDeps, NoteNode } from './deps.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL arguments differ per field; each resolver types its own
type Resolver<P, A = any> = (parent: P, args: A, context: GraphqlContext) => unknown;

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
/** GitLab's page size for connections (default_max_page_size). */
export const MAX_PAGE_SIZE = 100;

/** GitLab's global id classes: a note's STI class, and its discussion's class by the first note. */
export const noteGlobalId = (note: Pick<Note, 'id' | 'type'>) => globalId(note.type ?? 'Note', note.id);
export function discussionGlobalId(discussion: Discussion): string {
  const first = discussion.notes[0];
  const kind = !first || first.type === null ? 'IndividualNoteDiscussion' : first.type === 'DiffNote' ? 'DiffDiscussion' : 'Discussion';
  return globalId(kind, discussion.id);
}

const onePage = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };

export function createNoteResolvers(deps: EditorDeps) {
  const user = (id: number | null, ctx: GraphqlContext): Promise<User | null> => ctx.scope.user(id);

  /**
   * Note bodies as HTML, rendered together per request and project: a page of threads names the
   * same users and merge requests again and again, and their references are looked up once.
   */
  const renderers = new WeakMap<GraphqlContext['scope'], DataLoader<NoteNode, string>>();
  function bodyHtml(node: NoteNode, ctx: GraphqlContext): Promise<string> {
    let loader = renderers.get(ctx.scope);
    if (!loader) {
      loader = new DataLoader<NoteNode, string>(
        async (nodes) => {
          const html = new Map<NoteNode, string>();
          for (const project of new Set(nodes.map((node) => node.scope.project))) {
            const ofProject = nodes.filter((node) => node.scope.project === project);
            const rendered = await deps.markdown.renderMany(ctx.scope.actor, ofProject.map((node) => node.note.body), { project });
            ofProject.forEach((node, i) => html.set(node, rendered[i]!));
          }
          return nodes.map((node) => html.get(node)!);
        },
        { cache: false, maxBatchSize: MAX_PAGE_SIZE },
      );
      renderers.set(ctx.scope, loader);
    }
    return loader.load(node);
  }

  const Query: Record<string, Resolver<unknown>> = {
    note: async (_, args: { id: ParsedGlobalId }, ctx) => {
      const id = recordId(args.id);
      const ref = id === null ? null : await deps.locator.note(ctx.scope.actor, id);
      if (!ref || id === null) return null;
      const found = await deps.notes.get(ref, id).catch(nullIfNotFound);
      return found ? ({ note: found.notes[0]!, scope: found.scope } satisfies NoteNode) : null;
    },
  };

  const MergeRequest: Record<string, Resolver<MergeRequestNode>> = {
    discussions: async ({ mergeRequest, project }, args: { after?: string | null; first?: number | null }, ctx) => {
      const limit = Math.min(Math.max(args.first ?? MAX_PAGE_SIZE, 1), MAX_PAGE_SIZE);
      const after = args.after ? decodeCursor(args.after) : null;
      const page = await deps.discussions.list([ctx.scope.actor, project.id, mergeRequest.iid], { kind: 'keyset', limit, after });
      return {
        nodes: page.discussions.map((discussion) => ({ discussion, scope: page.scope }) satisfies DiscussionNode),
        pageInfo: { hasNextPage: page.next !== undefined, hasPreviousPage: args.after != null, startCursor: null, endCursor: page.next ?? null },
      };
    },
    assignees: async ({ mergeRequest }) => {
      const users = (await deps.mergeRequestUsers.assignees([mergeRequest.id])).get(mergeRequest.id) ?? [];
      return { count: users.length, nodes: users };
    },
    reviewers: async ({ mergeRequest }) => {
      const users = (await deps.mergeRequestUsers.reviewers([mergeRequest.id])).get(mergeRequest.id) ?? [];
      return { count: users.length, nodes: users };
    },
  };

  const MergeRequestPermissions: Record<string, Resolver<MergeRequestNode>> = {
    createNote: async ({ mergeRequest, project }, _, ctx) => mayCommentOn(await ctx.scope.abilities(project), mergeRequest.discussion_locked === true),
  };

  const Discussion: Record<string, Resolver<DiscussionNode>> = {
    id: ({ discussion }) => discussionGlobalId(discussion),
    replyId: ({ discussion }) => discussionGlobalId(discussion),
    createdAt: ({ discussion }) => iso(discussion.notes[0]?.created_at),
    updatedAt: ({ discussion }) => iso(discussion.notes.reduce<Date | null>((latest, note) => (latest && latest > note.updated_at ? latest : note.updated_at), null)),
    resolvable: ({ discussion }) => threadState(discussion.notes).resolvable,
    resolved: ({ discussion }) => threadState(discussion.notes).resolved,
    resolvedAt: ({ discussion }) => iso(threadState(discussion.notes).resolvedAt),
    resolvedBy: ({ discussion }, _, ctx) => user(threadState(discussion.notes).resolvedById, ctx),
    notes: ({ discussion, scope }) => ({ nodes: discussion.notes.map((note) => ({ note, scope, discussion }) satisfies NoteNode), pageInfo: onePage }),
  };

  const Note: Record<string, Resolver<NoteNode>> = {
    id: ({ note }) => noteGlobalId(note),
    body: ({ note }) => note.body,
    bodyHtml: (node, _, ctx) => bodyHtml(node, ctx),
    author: ({ note }, _, ctx) => user(note.author_id, ctx),
    createdAt: ({ note }) => iso(note.created_at),
    updatedAt: ({ note }) => iso(note.updated_at),
    lastEditedAt: ({ note }) => iso(note.last_edited_at),
    lastEditedBy: ({ note }, _, ctx) => user(note.last_edited_at ? note.updated_by_id : null, ctx),
    system: ({ note }) => note.system,
    internal: ({ note }) => note.internal,
    confidential: ({ note }) => note.internal,
    resolvable: ({ note }) => isResolvable(note),
    resolved: ({ note }) => isResolvable(note) && note.resolved_at !== null,
    resolvedAt: ({ note }) => iso(note.resolved_at),
    resolvedBy: ({ note }, _, ctx) => user(note.resolved_by_id, ctx),
    url: ({ note, scope }) => deps.urls.web(`${scope.project.full_path}/-/merge_requests/${scope.mergeRequest.iid}#note_${note.id}`),
    discussion: async ({ note, scope, discussion }, _, ctx) => {
      if (discussion) return { discussion, scope } satisfies DiscussionNode;
      const read = await deps.discussions.get([ctx.scope.actor, scope.project.id, scope.mergeRequest.iid], note.discussion_id).catch(nullIfNotFound);
      return read?.discussions[0] ? ({ discussion: read.discussions[0], scope: read.scope } satisfies DiscussionNode) : null;
    },
    position: ({ note }) => note.position,
    userPermissions: ({ note, scope }) => notePermissions(deps.noteAccess.abilities(scope, note)),
  };

  const DiffPosition: Record<string, Resolver<NonNullable<Note['position']>>> = {
    diffRefs: (position) => ({ baseSha: position.base_sha, headSha: position.head_sha, startSha: position.start_sha }),
    filePath: (position) => positionFilePath(position),
    oldPath: (position) => position.old_path,
    newPath: (position) => position.new_path,
    oldLine: (position) => position.old_line ?? null,
    newLine: (position) => position.new_line ?? null,
    positionType: (position) => position.position_type,
    width: (position) => position.width ?? null,
    height: (position) => position.height ?? null,
    x: (position) => position.x ?? null,
    y: (position) => position.y ?? null,
  };

  return { Query, MergeRequest, MergeRequestPermissions, Discussion, Note, DiffPosition };
}
