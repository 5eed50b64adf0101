/**
 * The picker's "Frequently used" emoji: at most 9 names, the latest pick
 * first, kept in localStorage under GitLab's key as a comma-separated list.
 */
export const FREQUENTLY_USED_STORAGE_KEY = 'frequently_used_emojis';
export const MAX_FREQUENTLY_USED = 9;

/** The stored list, without blanks, repeats and names that are no (longer) emoji. */
export function parseFrequentlyUsed(raw: string | null, isEmoji: (name: string) => boolean): string[] {
  const names = (raw ?? '').split(',').filter((name) => name !== '' && isEmoji(name));
  return [...new Set(names)].slice(0, MAX_FREQUENTLY_USED);
}

/** The list after picking `name`: it moves to the front, the oldest beyond 9 drops off. */
export function addFrequentlyUsed(list: readonly string[], name: string): string[] {
  return [name, ...list.filter((entry) => entry !== name)].slice(0, MAX_FREQUENTLY_USED);
}

export function readFrequentlyUsed(isEmoji: (name: string) => boolean): string[] {
  try {
    return parseFrequentlyUsed(window.localStorage.getItem(FREQUENTLY_USED_STORAGE_KEY), isEmoji);
  } catch {
    return [];
  }
}

export function rememberFrequentlyUsed(name: string): void {
  try {
    const current = parseFrequentlyUsed(window.localStorage.getItem(FREQUENTLY_USED_STORAGE_KEY), () => true);
    window.localStorage.setItem(FREQUENTLY_USED_STORAGE_KEY, addFrequentlyUsed(current, name).join(','));
  } catch {
    // storage refused (a private window): the pick itself still counts
  }
}
