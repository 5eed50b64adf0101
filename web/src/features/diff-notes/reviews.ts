/**
 * Files marked reviewed ("Viewed"), remembered per merge request in localStorage as GitLab
 * does (key `<merge request path>-file-reviews`): a reviewed file starts collapsed. Pure,
 * apart from the storage passed in.
 */
export type Reviews = Readonly<Record<string, true>>;

export function reviewsKey(projectPath: string, iid: number): string {
  return `/${projectPath}/-/merge_requests/${iid}-file-reviews`;
}

export function parseReviews(stored: string | null): Reviews {
  if (!stored) return {};
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([, reviewed]) => reviewed === true)) as Reviews;
  } catch {
    return {};
  }
}

export function setReviewed(reviews: Reviews, path: string, reviewed: boolean): Reviews {
  const next: Record<string, true> = { ...reviews };
  if (reviewed) next[path] = true;
  else delete next[path];
  return next;
}
