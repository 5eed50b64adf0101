// features/notes: what other areas and the app may use. Everything else in this folder is its own.
export { ActivitySection } from './ActivitySection';
export { appendDiscussion, authorRolesQuery, discussionsQuery, firstDiscussionsPageUrl, notesApi, notesKeys, type DiscussionPage, type NoteTarget } from './api';
export { storage } from './autosave';
export { DiscussionItem } from './DiscussionItem';
export { NoteEditor } from './NoteEditor';
export { NotesContext, useNotesContext, type AuthorRole, type NotesContextValue } from './NotesContext';
export type { DiscussionEntity, NoteEntity } from './types';
