// features/markdown: what other areas and the app may use. Everything else in this folder is its own.
export { MarkdownBody } from './MarkdownBody';
export { MarkdownField } from './MarkdownField';
