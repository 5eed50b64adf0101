import type { DiscussionsView } from '../../../../domains/notes/discussions.service.js';
import type { NotesView } from '../../../../domains/notes/notes.service.js';
import type { RestContext } from '../../context.js';
import { discussionEntity, noteEntity } from '../../entities/notes.js';

/** Notes and discussions of a service view, as GitLab's entities. */
export function renderNotes(ctx: RestContext<never>, view: NotesView) {
  const context = { noteable: view.scope.noteable, users: view.users, urls: ctx.urls, suggestions: view.suggestions, abilities: view.abilities };
  return view.notes.map((note) => noteEntity(note, context));
}

export function renderDiscussions(ctx: RestContext<never>, view: DiscussionsView) {
  const context = { noteable: view.scope.noteable, users: view.users, urls: ctx.urls, suggestions: view.suggestions, abilities: view.abilities };
  return view.discussions.map((discussion) => discussionEntity(discussion, context));
}

/** GitLab's keyset pagination headers: a Link to the next page only, none on the last page. */
export function keysetHeaders(url: URL, perPage: number, next: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'x-per-page': String(perPage) };
  if (next) {
    const target = new URL(url);
    target.searchParams.set('pagination', 'keyset');
    target.searchParams.set('per_page', String(perPage));
    target.searchParams.set('cursor', next);
    target.searchParams.delete('page');
    headers.link = `<${target.toString()}>; rel="next"`;
  }
  return headers;
}
