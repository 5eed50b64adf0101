import { t } from '@tributary/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UserBasic } from '../../lib/gitlab-types';
import { awardsApi, awardKeys, patchAwards, type AwardEmoji, type AwardTarget } from './api';

/** What a failed award says. */
export const AWARD_FAILURE = 'Something went wrong on our end.';

let placeholderIds = 0;

/**
 * Toggles the current user's award of a name, optimistically: the button changes at once, and a
 * failure puts back exactly what this toggle changed (other toggles in flight keep theirs), then
 * reloads the list and shows the failure message.
 */
export function useAwardToggle(target: AwardTarget, user: UserBasic | null) {
  const client = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async (change: { name: string; mine: AwardEmoji | null; placeholderId: number }): Promise<AwardEmoji | null> => {
      if (change.mine) {
        await awardsApi.remove(target, change.mine.id);
        return null;
      }
      return awardsApi.award(target, change.name);
    },
    onMutate: async (change) => {
      setError(null);
      await client.cancelQueries({ queryKey: awardKeys.of(target) });
      if (change.mine) patchAwards(client, target, (awards) => awards.filter((award) => award.id !== change.mine!.id));
      else if (user) patchAwards(client, target, (awards) => [...awards, placeholder(target, change.name, user, change.placeholderId)]);
    },
    onSuccess: (saved, change) => {
      if (saved) patchAwards(client, target, (awards) => awards.map((award) => (award.id === change.placeholderId ? saved : award)));
    },
    onError: (_failure, change) => {
      if (change.mine) patchAwards(client, target, (awards) => (awards.some((award) => award.id === change.mine!.id) ? awards : [...awards, change.mine!].sort((a, b) => a.id - b.id)));
      else patchAwards(client, target, (awards) => awards.filter((award) => award.id !== change.placeholderId));
      setError(t(AWARD_FAILURE));
      void client.invalidateQueries({ queryKey: awardKeys.of(target) });
    },
  });
  return {
    error,
    dismissError: () => setError(null),
    toggle: (name: string, mine: AwardEmoji | null) => mutation.mutate({ name, mine, placeholderId: -++placeholderIds }),
  };
}

function placeholder(target: AwardTarget, name: string, user: UserBasic, id: number): AwardEmoji {
  const now = new Date().toISOString();
  return {
    id,
    name,
    user,
    created_at: now,
    updated_at: now,
    awardable_id: target.noteId ?? 0,
    awardable_type: target.noteId === null ? 'MergeRequest' : 'Note',
  };
}
