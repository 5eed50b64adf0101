import { describe, expect, it } from 'vitest';
import { deploymentStatusFor, environmentFolder, environmentSlug, guessTier, validEnvironmentName } from './environment-rules.js';

describe('environmentSlug (GitLab’s CI_ENVIRONMENT_SLUG)', () => {
  // GitLab's own table, with the digest fixed to 'a' * 64 (whose suffix is 'q517sa')
  it.each([
    ['staging-12345678901234567', 'staging-123456789-q517sa'],
    ['9-staging-123456789012345', 'env-9-staging-123-q517sa'],
    ['staging-1234567890123456', 'staging-1234567890123456'],
    ['staging-1234567890123456-', 'staging-123456789-q517sa'],
    ['production', 'production'],
    ['PRODUCTION', 'production-q517sa'],
    ['review/1-foo', 'review-1-foo-q517sa'],
    ['1-foo', 'env-1-foo-q517sa'],
    ['1/foo', 'env-1-foo-q517sa'],
    ['foo-', 'foo'],
    ['foo--bar', 'foo-bar-q517sa'],
    ['foo**bar', 'foo-bar-q517sa'],
    ['*-foo', 'env-foo-q517sa'],
    ['staging-12345678-', 'staging-12345678'],
    ['', 'env-q517sa'],
    ['staging-12345678-01234567', 'staging-12345678-q517sa'],
  ])('%s → %s', (name, slug) => {
    expect(environmentSlug(name, 'a'.repeat(64))).toBe(slug);
  });

  it('derives the suffix from the name’s SHA-256, so distinct names keep distinct slugs', () => {
    expect(environmentSlug('review/feature')).toMatch(/^review-feature-[a-z0-9]{6}$/);
    expect(environmentSlug('review/feature')).not.toBe(environmentSlug('review-feature/'));
    expect(environmentSlug('review/feature')).toBe(environmentSlug('review/feature'));
  });
});

describe('guessTier (GitLab’s Environment#guess_tier)', () => {
  it.each([
    ['dev', 'development'],
    ['review/feature', 'development'],
    ['trunk', 'development'],
    ['test', 'testing'],
    ['integration', 'testing'],
    ['qa', 'testing'],
    ['acceptance', 'testing'],
    ['staging', 'staging'],
    ['stg', 'staging'],
    ['pre-prod', 'staging'],
    ['demo', 'staging'],
    ['model', 'staging'],
    ['production', 'production'],
    ['prod', 'production'],
    ['live', 'production'],
    ['canary', 'other'],
    ['', 'other'],
  ])('%s is %s', (name, tier) => {
    expect(guessTier(name)).toBe(tier);
  });
});

describe('environmentFolder (environment_type)', () => {
  it.each([
    ['review/feature', 'review'],
    ['review/feature/sub', 'review'],
    ['production', null],
  ])('%s is in %s', (name, folder) => {
    expect(environmentFolder(name)).toBe(folder);
  });
});

describe('validEnvironmentName', () => {
  it.each([
    ['production', true],
    ['review/$CI_COMMIT_REF_SLUG', true],
    ['with space.1', true],
    ['', false],
    ['/leading', false],
    ['trailing/', false],
    ['bad*char', false],
  ])('%s → %s', (name, valid) => {
    expect(validEnvironmentName(name)).toBe(valid);
  });
});

describe('deploymentStatusFor', () => {
  it.each([
    ['running', 'running'],
    ['success', 'success'],
    ['failed', 'failed'],
    ['canceled', 'canceled'],
    ['skipped', 'skipped'],
    ['pending', null],
    ['manual', null],
    ['canceling', null],
  ])('a %s job makes the deployment %s', (job, deployment) => {
    expect(deploymentStatusFor(job)).toBe(deployment);
  });
});
