import { Flash, Tooltip } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { t } from '@tributary/contracts';
import { Emoji } from '../../components/Emoji';
import type { UserBasic } from '../../lib/gitlab-types';
import { emojiDataQuery, type AwardEmoji, type AwardTarget } from './api';
import { groupAwards } from './award-groups';
import { EmojiPicker } from './EmojiPicker';
import { useAwardToggle } from './useAwardToggle';
import styles from './Emoji.module.css';

/**
 * The award buttons of a note or of the merge request (GitLab's awards_list.vue): one per
 * emoji with its count and the tooltip of who reacted; a click toggles the current user's
 * award. Signed-out visitors and users who may not award see them disabled.
 * Until the awards have loaded (`awards` undefined) it shows no button at all, only the row's
 * space: a count shown before then would be a wrong one (the merge request's thumbs up and
 * down would read 0), and a click on it would toggle an award the user may already have.
 */
export function AwardsList({
  target,
  awards,
  user,
  canAward,
  defaults = [],
}: {
  target: AwardTarget;
  awards: readonly AwardEmoji[] | undefined;
  user: UserBasic | null;
  canAward: boolean;
  defaults?: readonly string[];
}) {
  const emoji = useQuery(emojiDataQuery());
  const { toggle, error } = useAwardToggle(target, user);
  const groups = groupAwards(awards ?? [], user?.id ?? null, defaults);
  const mayAward = canAward && user !== null;

  if (awards === undefined) return <div className={`${styles.awards} ${styles.awardsLoading}`} aria-hidden="true" />;

  const award = (name: string) => {
    const mine = groups.find((group) => group.name === name)?.mine ?? null;
    // an award still on its way has no id to remove yet
    if (!mayAward || (mine !== null && mine.id < 0)) return;
    toggle(name, mine);
  };

  if (groups.length === 0 && !mayAward) return null;
  return (
    <div className={styles.awards} role="group" aria-label={t('Reactions')}>
      {groups.map((group) => {
        const button = (
          <button
            type="button"
            className={styles.award}
            aria-pressed={group.mine !== null}
            aria-disabled={!mayAward || undefined}
            data-emoji-name={group.name}
            onClick={() => award(group.name)}
          >
            <span className={styles.glyph} aria-hidden="true">
              <AwardGlyph name={group.name} char={emoji.data?.byName.get(group.name)?.char} />
            </span>
            <span>{group.awards.length}</span>
          </button>
        );
        return group.tooltip ? (
          <Tooltip key={group.name} text={group.tooltip} type="description" direction="n">
            {button}
          </Tooltip>
        ) : (
          <span key={group.name}>{button}</span>
        );
      })}
      {mayAward ? <EmojiPicker onPick={award} /> : null}
      {error ? (
        <Flash variant="danger" role="alert" className={styles.awardError}>
          {error}
        </Flash>
      ) : null}
    </div>
  );
}

/** An award's emoji; its name in colons until the emoji list has loaded (or for a name it lacks). */
function AwardGlyph({ name, char }: { name: string; char: string | undefined }) {
  return char === undefined ? <>{`:${name}:`}</> : <Emoji name={name} unicode={char} />;
}
