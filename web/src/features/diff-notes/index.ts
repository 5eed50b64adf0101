// features/diff-notes: what other areas and the app may use. Everything else in this folder is its own.
export { DiffExcerpt } from './DiffExcerpt';
export { useDiffNotes } from './DiffNotesContext';
export { DiffNotesProvider } from './DiffNotesProvider';
export { diffNoteSlots } from './slots';
export { threadLines } from './threads';
