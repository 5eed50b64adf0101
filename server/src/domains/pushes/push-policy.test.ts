import { describe, expect, it } from 'vitest';
import { checkPush, REF_MESSAGES } from './push-policy.js';
import { ZERO_SHA } from './push.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const developer = { userId: 2, isAdmin: false, accessLevel: 30 };

describe('checkPush', () => {
  it('accepts a new ordinary branch', () => {
    expect(checkPush(developer, [{ ref: 'refs/heads/feature', oldSha: ZERO_SHA, newSha: A }], [])).toBeNull();
  });

  it.each(['--output=/tmp/x', '-h', A, 'HEAD', 'a..b', 'x.lock'])('refuses the branch name %s', (name) => {
    expect(checkPush(developer, [{ ref: `refs/heads/${name}`, oldSha: ZERO_SHA, newSha: A }], [])).toMatch(/Branch name is invalid/);
  });

  it('refuses bad tag names', () => {
    expect(checkPush(developer, [{ ref: 'refs/tags/-v1', oldSha: ZERO_SHA, newSha: A }], [])).toMatch(/Tag name invalid/);
  });

  it('refuses refs outside heads and tags', () => {
    expect(checkPush(developer, [{ ref: 'refs/merge-requests/1/head', oldSha: ZERO_SHA, newSha: A }], [])).toBe(REF_MESSAGES.otherRef);
  });

  it('refuses the whole push when one update is refused', () => {
    const updates = [
      { ref: 'refs/heads/ok', oldSha: ZERO_SHA, newSha: A },
      { ref: 'refs/heads/-bad', oldSha: ZERO_SHA, newSha: B },
    ];
    expect(checkPush(developer, updates, [])).not.toBeNull();
  });
});
