import { t } from '@tributary/contracts';
import type { AwardEmoji } from './api';

/** The tooltip names at most 10 people, then 'and N more'. */
export const TOOLTIP_NAME_COUNT = 10;
export const THUMBS_UP = 'thumbsup';
export const THUMBS_DOWN = 'thumbsdown';
/** The merge request always offers the two votes, even at 0 (GitLab's defaultAwards). */
export const MERGE_REQUEST_DEFAULT_AWARDS = [THUMBS_UP, THUMBS_DOWN] as const;

export interface AwardGroup {
  name: string;
  awards: AwardEmoji[];
  /** the current user's own award of this name, if any */
  mine: AwardEmoji | null;
  tooltip: string;
}

/**
 * The award buttons: one per name, thumbs up and down first (GitLab's awards_list.vue), then
 * the others in the order they were first awarded; `defaults` show even with no award.
 */
export function groupAwards(awards: readonly AwardEmoji[], currentUserId: number | null, defaults: readonly string[] = []): AwardGroup[] {
  const byName = new Map<string, AwardEmoji[]>(defaults.map((name) => [name, []]));
  for (const award of awards) {
    const list = byName.get(award.name);
    if (list) list.push(award);
    else byName.set(award.name, [award]);
  }
  const votes = [THUMBS_UP, THUMBS_DOWN].filter((name) => byName.has(name));
  const names = [...votes, ...[...byName.keys()].filter((name) => !votes.includes(name))];
  return names.map((name) => {
    const list = byName.get(name)!;
    return {
      name,
      awards: list,
      mine: currentUserId === null ? null : (list.find((award) => award.user.id === currentUserId) ?? null),
      tooltip: awardTooltip(list, name, currentUserId),
    };
  });
}

/**
 * "You, Ada, and Bob reacted with :tada:" (GitLab's getAwardListTitle): at most 10 names, then
 * ", and N more"; the current user is named first, as "You" (GitLab moves them into the
 * first 10).
 */
export function awardTooltip(awards: readonly Pick<AwardEmoji, 'user'>[], name: string, currentUserId: number | null): string {
  if (awards.length === 0) return '';
  const mine = currentUserId === null ? -1 : awards.findIndex((award) => award.user.id === currentUserId);
  const others = awards.filter((_, index) => index !== mine).map((award) => award.user.name);
  const names = mine < 0 ? others : [t('You'), ...others];
  const shown = names.slice(0, TOOLTIP_NAME_COUNT);
  const remaining = names.length - shown.length;
  let list: string;
  if (remaining > 0) list = t('%{listToShow}, and %{awardsListLength} more', { listToShow: shown.join(', '), awardsListLength: remaining });
  else if (shown.length > 1) list = `${shown.slice(0, -1).join(', ')}${shown.length > 2 ? ',' : ''}${t(' and %{sliced}', { sliced: shown[shown.length - 1]! })}`;
  else list = shown[0]!;
  return list + t(' reacted with :%{name}:', { name });
}

const NO_AWARDS: AwardEmoji[] = [];
const byNoteCache = new WeakMap<readonly AwardEmoji[], Map<number, AwardEmoji[]>>();

/** One note's awards out of the notes' list, grouped once per version of the list (not once per note). */
export function awardsOfNote(all: readonly AwardEmoji[], noteId: number): AwardEmoji[] {
  let byNote = byNoteCache.get(all);
  if (!byNote) {
    byNote = new Map();
    for (const award of all) {
      if (award.awardable_type !== 'Note') continue;
      const list = byNote.get(award.awardable_id);
      if (list) list.push(award);
      else byNote.set(award.awardable_id, [award]);
    }
    byNoteCache.set(all, byNote);
  }
  return byNote.get(noteId) ?? NO_AWARDS;
}
