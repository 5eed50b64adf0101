import { describe, expect, it } from 'vitest';
import { shouldRecheckSession } from './unauthorized';

const base = { status: 401, queryKey: ['projects', 1], sessionKey: 'session', signedIn: true };

describe('shouldRecheckSession', () => {
  it('re-checks after a 401 while signed in (the session ended elsewhere)', () => {
    expect(shouldRecheckSession(base)).toBe(true);
  });
  it('does not re-check when signed out: a public page must not loop', () => {
    expect(shouldRecheckSession({ ...base, signedIn: false })).toBe(false);
  });
  it("ignores the session's own 401 and other failures", () => {
    expect(shouldRecheckSession({ ...base, queryKey: ['session'] })).toBe(false);
    expect(shouldRecheckSession({ ...base, status: 404 })).toBe(false);
    expect(shouldRecheckSession({ ...base, status: 403 })).toBe(false);
    expect(shouldRecheckSession({ ...base, status: null })).toBe(false);
  });
});
