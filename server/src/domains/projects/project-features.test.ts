import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { defaultFeatureLevels, featureSettings } from './project-features.js';

const current = defaultFeatureLevels('private');
const errorOf = (input: Record<string, unknown>) => {
  try {
    featureSettings(input, current);
  } catch (error) {
    if (error instanceof ValidationError) return error.body;
    throw error;
  }
  return null;
};

describe('featureSettings', () => {
  it.each([
    [{ merge_requests_access_level: 'private' }, { merge_requests_access_level: 10 }],
    [{ repository_access_level: 'disabled', merge_requests_access_level: 'disabled', builds_access_level: 'disabled' }, { repository_access_level: 0, merge_requests_access_level: 0, builds_access_level: 0 }],
    [{ merge_requests_enabled: false }, { merge_requests_access_level: 0 }],
    [{ jobs_enabled: 'true', public_jobs: false }, { builds_access_level: 20, public_builds: false }],
    // an explicit level wins over the legacy boolean
    [{ merge_requests_enabled: false, merge_requests_access_level: 'enabled' }, { merge_requests_access_level: 20 }],
    [{ pages_access_level: 'public' }, { pages_access_level: 30 }],
    [{}, {}],
  ])('%j → %j', (input, expected) => {
    expect(featureSettings(input, current)).toEqual(expected);
  });

  it.each([
    [{ wiki_access_level: 'everyone' }, 'wiki_access_level does not have a valid value'],
    [{ merge_requests_enabled: 'maybe' }, 'merge_requests_enabled is invalid'],
    [{ wiki_access_level: 'public' }, { 'project_feature.wiki_access_level': ['cannot have public visibility level'] }],
    [{ repository_access_level: 'private' }, { 'project_feature.merge_requests_access_level': ['cannot have higher visibility level than repository access level'], 'project_feature.builds_access_level': ['cannot have higher visibility level than repository access level'] }],
    [{ repository_access_level: 'disabled', builds_access_level: 'disabled' }, { 'project_feature.merge_requests_access_level': ['cannot have higher visibility level than repository access level'] }],
  ])('%j is refused: %j', (input, expected) => {
    expect(errorOf(input)).toEqual(expected);
  });

  it('pages start enabled on a public project and members-only otherwise (GitLab)', () => {
    expect(defaultFeatureLevels('public').pages_access_level).toBe(20);
    expect(defaultFeatureLevels('internal').pages_access_level).toBe(10);
  });
});
