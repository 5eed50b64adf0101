import { describe, expect, it } from 'vitest';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import { checkPush } from '../pushes/push-policy.js';
import { ZERO_SHA } from '../pushes/push.js';
import type { ProtectedTag } from './protected-tag.js';
import { canCreateTag, checkTagUpdate, TAG_PUSH_MESSAGES, type TagUpdateFacts } from './tag-rules.js';

const protection = (name: string, ...levels: number[]): ProtectedTag => ({
  id: 1,
  project_id: 1,
  name,
  rules: levels.map((level, index) => ({ id: index + 1, kind: 'create', access_level: level, user_id: null, group_id: null })),
});
const developer: PusherFacts = { userId: 2, isAdmin: false, accessLevel: 30 };
const maintainer: PusherFacts = { userId: 3, isAdmin: false, accessLevel: 40 };
const admin: PusherFacts = { userId: 1, isAdmin: true, accessLevel: 0 };
const create = (tag = 'v1.0', via: 'git' | 'web' = 'git'): TagUpdateFacts => ({ tag, creating: true, deleting: false, via });
const remove = (tag = 'v1.0', via: 'git' | 'web' = 'git'): TagUpdateFacts => ({ tag, creating: false, deleting: true, via });
const move = (tag = 'v1.0'): TagUpdateFacts => ({ tag, creating: false, deleting: false, via: 'git' });
const vStar = [protection('v*', 40)];

describe('checkTagUpdate (GitLab\'s protected tag check)', () => {
  it.each([
    ['unprotected tags are anyone\'s', developer, create('nightly'), vStar, null],
    ['a developer may not create a tag only maintainers may', developer, create(), vStar, TAG_PUSH_MESSAGES.createProtected],
    ['a maintainer creates it', maintainer, create(), vStar, null],
    ['a developer creates it when developers are allowed', developer, create(), [protection('v*', 30)], null],
    ['no one creates it when the level is 0', maintainer, create(), [protection('v*', 0)], TAG_PUSH_MESSAGES.createProtected],
    ['an administrator creates it when maintainers may', admin, create(), vStar, null],
    ['the most permissive matching rule wins', developer, create('v1.0'), [protection('v*', 40), protection('v1.*', 30)], null],
    ['an exact name protects only that tag', developer, create('v1.0'), [protection('v1', 40)], null],
    ['a protected tag is never moved', maintainer, move(), vStar, TAG_PUSH_MESSAGES.updateProtected],
    ['a developer may not delete it', developer, remove('v1.0', 'web'), [protection('v*', 30)], TAG_PUSH_MESSAGES.deleteProtected],
    ['a maintainer may not delete it by git push', maintainer, remove(), vStar, TAG_PUSH_MESSAGES.deleteProtectedNonWeb],
    ['a maintainer deletes it through the web or API', maintainer, remove('v1.0', 'web'), vStar, null],
    ['deleting through the web still needs "Allowed to create"', maintainer, remove('v1.0', 'web'), [protection('v*', 0)], TAG_PUSH_MESSAGES.createProtected],
  ] as const)('%s', (_name, pusher, update, protections, expected) => {
    expect(checkTagUpdate(pusher, update, [...protections])).toBe(expected);
  });

  it('user grants allow that user only', () => {
    const byUser: ProtectedTag = { id: 1, project_id: 1, name: 'v*', rules: [{ id: 1, kind: 'create', access_level: null, user_id: 2, group_id: null }] };
    expect(canCreateTag(developer, 'v2', [byUser])).toBe(true);
    expect(canCreateTag({ ...developer, userId: 9 }, 'v2', [byUser])).toBe(false);
  });
});

describe('checkPush applies the protected tag rules', () => {
  const sha = 'a'.repeat(40);
  it('refuses a git push creating a protected tag and allows it for a maintainer', () => {
    const update = { ref: 'refs/tags/v1.0', oldSha: ZERO_SHA, newSha: sha };
    expect(checkPush(developer, [update], [], vStar)).toBe(TAG_PUSH_MESSAGES.createProtected);
    expect(checkPush(maintainer, [update], [], vStar)).toBeNull();
  });
  it('refuses deleting a protected tag by git push, allows it through the API', () => {
    const update = { ref: 'refs/tags/v1.0', oldSha: sha, newSha: ZERO_SHA };
    expect(checkPush(maintainer, [update], [], vStar)).toBe(TAG_PUSH_MESSAGES.deleteProtectedNonWeb);
    expect(checkPush(maintainer, [update], [], vStar, 'web')).toBeNull();
  });
});
