/**
 * The `Content-Range` header of a runner's log chunk (`PATCH /api/v4/jobs/:id/trace`):
 * `start-end`, both inclusive byte offsets (gitlab-runner sends it without a unit; `bytes start-end`
 * and a `/total` suffix are accepted too). Null when it is not one.
 */
export function parseLogContentRange(header: string | undefined): { start: number; end: number } | null {
  if (!header) return null;
  const match = /^\s*(?:bytes[ =])?(\d{1,15})-(\d{1,15})(?:\/(?:\d+|\*))?\s*$/.exec(header);
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return end >= start ? { start, end } : null;
}
