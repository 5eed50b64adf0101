// features/emoji: what other areas and the app may use. Everything else in this folder is its own.
export { MergeRequestAwards } from './MergeRequestAwards';
export { NoteAwards } from './NoteAwards';
