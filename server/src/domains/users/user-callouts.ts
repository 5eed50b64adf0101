/**
 * GitLab's user callouts: hints a signed-in user dismissed, by GitLab's feature names (only
 * the names Tributary shows a hint for are taken). Dismissing again moves the time; nothing
 * else is stored.
 */
import type { Actor } from '../../auth/actor.js';
import type { Queryable } from '../../platform/db/database.js';
import { UnauthorizedError, ValidationError } from '../../platform/errors.js';

/** The hints that can be dismissed: the merge widget's suggestion to add a pipeline, the pipeline graph's hover tip. */
export const USER_CALLOUT_FEATURES = ['suggest_pipeline', 'pipeline_needs_hover_tip'] as const;
export type UserCalloutFeature = (typeof USER_CALLOUT_FEATURES)[number];

export interface UserCallout {
  feature_name: string;
  dismissed_at: Date;
}

export const isUserCalloutFeature = (name: unknown): name is UserCalloutFeature => typeof name === 'string' && (USER_CALLOUT_FEATURES as readonly string[]).includes(name);

export function createUserCallouts(db: Queryable) {
  function signedIn(actor: Actor): number {
    if (!actor.user) throw new UnauthorizedError();
    return actor.user.id;
  }

  return {
    async list(actor: Actor): Promise<UserCallout[]> {
      const { rows } = await db.query<UserCallout>('SELECT feature_name, dismissed_at FROM user_callouts WHERE user_id = $1 ORDER BY feature_name', [signedIn(actor)]);
      return rows;
    },

    async dismiss(actor: Actor, featureName: unknown): Promise<UserCallout> {
      const userId = signedIn(actor);
      if (!isUserCalloutFeature(featureName)) throw ValidationError.field('feature_name', 'does not have a valid value');
      const { rows } = await db.query<UserCallout>(
        `INSERT INTO user_callouts (user_id, feature_name) VALUES ($1, $2)
         ON CONFLICT (user_id, feature_name) DO UPDATE SET dismissed_at = now()
         RETURNING feature_name, dismissed_at`,
        [userId, featureName],
      );
      return rows[0]!;
    },
  };
}

export type UserCallouts = ReturnType<typeof createUserCallouts>;
