// features/suggestions: what other areas and the app may use. Everything else in this folder is its own.
export { InsertSuggestionButton } from './InsertSuggestionButton';
export { SuggestedNoteBody } from './SuggestedNoteBody';
export { SuggestionPreview, suggestionSourceOf, type SuggestionSource } from './SuggestionPreview';
