import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { ABUSE_CATEGORIES, validateAbuseReport } from './abuse-report-rules.js';

const ok = { userId: 7, category: 'spam', comment: ' buys followers ', reportedFromUrl: 'http://host/g/p/-/merge_requests/1#note_3' };
const problem = (input: Partial<typeof ok> & Record<string, unknown>) => {
  try {
    validateAbuseReport({ ...ok, ...input } as never, 1);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).body;
  }
  return null;
};

describe('validateAbuseReport', () => {
  it('has the eight reasons of the spec, in its order', () => {
    expect(ABUSE_CATEGORIES).toEqual(['spam', 'offensive', 'phishing', 'crypto', 'credentials', 'copyright', 'malware', 'other']);
  });

  it('accepts every category and trims the comment', () => {
    for (const category of ABUSE_CATEGORIES) expect(validateAbuseReport({ ...ok, category }, 1)).toEqual({ ...ok, category, comment: 'buys followers' });
  });

  it('requires the category (the drawer’s radio is required) and refuses unknown ones', () => {
    expect(problem({ category: undefined })).toBe('400 (Bad request) "category" not given');
    expect(problem({ category: '' })).toBe('400 (Bad request) "category" not given');
    expect(problem({ category: 'rude' })).toBe('400 (Bad request) "category" does not have a valid value');
  });

  it('requires a user and a comment, within limits', () => {
    expect(problem({ userId: undefined })).toBe('400 (Bad request) "user_id" not given');
    expect(problem({ comment: '   ' })).toEqual({ message: ["can't be blank"] });
    expect(problem({ comment: 'x'.repeat(5001) })).toEqual({ message: ['is too long (maximum is 5000 characters)'] });
    expect(problem({ reportedFromUrl: `http://h/${'x'.repeat(600)}` })).toEqual({ reported_from_url: ['is too long (maximum is 512 characters)'] });
    expect(problem({ reportedFromUrl: 'javascript:alert(1)' })).toEqual({ reported_from_url: ['is blocked: Only allowed schemes are http, https'] });
  });

  it('refuses reporting oneself', () => {
    expect(problem({ userId: 1 })).toEqual({ user_id: ['You cannot report yourself'] });
  });
});
