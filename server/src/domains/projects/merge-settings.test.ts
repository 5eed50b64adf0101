import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { mergeTextSettings } from './merge-settings.js';

const none = { merge_commit_template: null, squash_commit_template: null, merge_request_title_regex: null, merge_request_title_regex_description: null };
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.body;
    throw error;
  }
  throw new Error('expected a ValidationError');
};

describe('mergeTextSettings', () => {
  it('keeps what the request names and clears empty values', () => {
    expect(mergeTextSettings({ merge_commit_template: 'Merge %{source_branch}', squash_commit_template: '' }, none)).toEqual({
      merge_commit_template: 'Merge %{source_branch}',
      squash_commit_template: null,
    });
    expect(mergeTextSettings({}, none)).toEqual({});
  });

  it('refuses templates over 500 characters', () => {
    expect(errorOf(() => mergeTextSettings({ merge_commit_template: 'x'.repeat(501) }, none))).toEqual({
      merge_commit_template: ['is too long (maximum is 500 characters)'],
    });
  });

  it('sets the title regex together with its description', () => {
    expect(mergeTextSettings({ merge_request_title_regex: '^feat', merge_request_title_regex_description: 'Start with feat' }, none)).toEqual({
      merge_request_title_regex: '^feat',
      merge_request_title_regex_description: 'Start with feat',
    });
  });

  it('refuses a regex without a description, and the reverse (GitLab’s messages)', () => {
    const both = {
      merge_request_title_regex: ['and regex description must be either both set, or neither.'],
      merge_request_title_regex_description: ['and regex must be either both set, or neither.'],
    };
    expect(errorOf(() => mergeTextSettings({ merge_request_title_regex: '^feat' }, none))).toEqual(both);
    expect(errorOf(() => mergeTextSettings({ merge_request_title_regex_description: 'Why' }, none))).toEqual(both);
    const current = { ...none, merge_request_title_regex: '^feat', merge_request_title_regex_description: 'Start with feat' };
    expect(errorOf(() => mergeTextSettings({ merge_request_title_regex_description: '' }, current))).toEqual(both);
    expect(mergeTextSettings({ merge_request_title_regex: '', merge_request_title_regex_description: '' }, current)).toEqual({
      merge_request_title_regex: null,
      merge_request_title_regex_description: null,
    });
  });

  it('refuses a pattern RE2 cannot compile', () => {
    const body = errorOf(() => mergeTextSettings({ merge_request_title_regex: '(unclosed', merge_request_title_regex_description: 'd' }, none)) as Record<string, string[]>;
    expect(body.merge_request_title_regex![0]).toMatch(/^not valid RE2 syntax: .*missing closing \)/);
    // Backreferences and lookarounds need backtracking: RE2 has none.
    expect(() => mergeTextSettings({ merge_request_title_regex: '(a)\\1', merge_request_title_regex_description: 'd' }, none)).toThrow(ValidationError);
  });

  it('refuses a value that is not text', () => {
    expect(errorOf(() => mergeTextSettings({ merge_commit_template: 42 }, none))).toEqual({ merge_commit_template: ['is invalid'] });
  });
});
