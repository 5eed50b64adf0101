/**
 * GitLab's MergeRequest#pipeline_coverage_delta: the head pipeline's coverage minus the base
 * pipeline's (the target branch's at the diff's base commit), as the widget shows it: two
 * decimals, signed only when negative ('%.2f'). Null unless both pipelines have a coverage.
 */
export function coverageDelta(head: number | null, base: number | null): string | null {
  if (head === null || base === null) return null;
  const delta = (head - base).toFixed(2);
  // -0.001 rounds to "-0.00": no change reads as "0.00"
  return delta === '-0.00' ? '0.00' : delta;
}
