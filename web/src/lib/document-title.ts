/** The product name every document title ends with. */
export const PRODUCT_NAME = 'Tributary';

/**
 * GitLab's document titles: the page's own parts from the most to the least specific, joined
 * by ' · ' and ended by the product, e.g. 'Fix it (!1) · Merge requests · group / project · Tributary'.
 * Empty parts are left out. Pure.
 */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((part): part is string => typeof part === 'string' && part.trim() !== ''), PRODUCT_NAME].join(' · ');
}
