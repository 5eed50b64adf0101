import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { artifactExpiry, DEFAULT_EXPIRE_IN_SECONDS } from './job-artifacts.service.js';

const now = new Date('2026-01-01T00:00:00Z');
const after = (seconds: number) => new Date(now.getTime() + seconds * 1000);

describe('artifactExpiry (expire_in as GitLab reads it)', () => {
  it.each([
    [undefined, after(DEFAULT_EXPIRE_IN_SECONDS)],
    ['', after(DEFAULT_EXPIRE_IN_SECONDS)],
    ['never', null],
    ['Never', null],
    ['1 week', after(7 * 24 * 3600)],
    ['2 hrs 20 min', after(2 * 3600 + 20 * 60)],
    ['3600', after(3600)],
  ])('%s → %s', (input, expected) => expect(artifactExpiry(input, now)).toEqual(expected));

  it('refuses what is not a duration', () => expect(() => artifactExpiry('soonish', now)).toThrow(ValidationError));
});
