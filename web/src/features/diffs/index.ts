// features/diffs: what other areas and the app may use. Everything else in this folder is its own.
export { rawFileQuery } from './api';
export { textRows } from './diff-items';
export { useDiffContext } from './DiffContext';
export type { DiffSlots } from './DiffSlots';
export { DiffViewer, type DiffLoadProgress } from './DiffViewer';
export { useEditRef } from './useEditRef';
export { useImageBlob } from './useImageBlob';
