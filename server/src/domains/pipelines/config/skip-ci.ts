/**
 * GitLab's Chain::Skip: a pushed commit whose message contains `[ci skip]` or `[skip ci]` (any
 * case, `-` or `_` or space between the words), or a push with the option `ci.skip`, creates a
 * pipeline in the `skipped` state without reading the configuration. Pipelines run from the web,
 * the API, a schedule or a trigger ignore it, as GitLab's do.
 */
import type { PipelineContext } from './types.js';

const SKIP_PATTERN = /\[(ci[ _-]skip|skip[ _-]ci)\]/i;

export function skipsCi(context: Pick<PipelineContext, 'source' | 'commitMessage' | 'pushOptions'>): boolean {
  if (context.source !== 'push' && context.source !== 'merge_request_event') return false;
  if (context.pushOptions?.some((option) => option === 'ci.skip' || option === 'skip-ci')) return true;
  return SKIP_PATTERN.test(context.commitMessage ?? '');
}
