import { describe, expect, it } from 'vitest';
import { availableScopes, UNAVAILABLE_SCOPES_MESSAGE, validateTokenInput } from './tokens.service.js';

describe('token scopes available to the owner (GitLab: the admin scopes only for administrators)', () => {
  const today = new Date('2026-01-10T12:00:00Z');
  it.each([
    [false, ['sudo'], false],
    [false, ['api', 'admin_mode'], false],
    [false, ['api', 'read_user', 'read_repository', 'write_repository', 'read_api'], true],
    [true, ['api', 'sudo', 'admin_mode'], true],
  ] as const)('owner is admin %s, scopes %j: allowed %s', (isAdmin, scopes, allowed) => {
    const attempt = () => validateTokenInput({ name: 'n', scopes: [...scopes] }, { is_admin: isAdmin }, today);
    if (allowed) expect(attempt().scopes).toEqual(scopes);
    else expect(attempt).toThrow(UNAVAILABLE_SCOPES_MESSAGE);
  });

  it('lists sudo and admin_mode for administrators only', () => {
    expect(availableScopes({ is_admin: false })).not.toContain('sudo');
    expect(availableScopes({ is_admin: true })).toEqual(expect.arrayContaining(['sudo', 'admin_mode']));
  });
});
