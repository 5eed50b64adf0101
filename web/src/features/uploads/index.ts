// features/uploads: what other areas and the app may use. Everything else in this folder is its own.
export { useMarkdownUpload } from './useMarkdownUpload';
