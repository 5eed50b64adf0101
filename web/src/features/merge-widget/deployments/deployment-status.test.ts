import { describe, expect, it } from 'vitest';
import { deploymentsPollInterval, displayedStatus, impactedTitle } from './deployment-status';

const playable = { playable_build: { play_path: '/g/p/-/jobs/1/play', retry_path: '/g/p/-/jobs/1/retry' } };

describe('displayedStatus', () => {
  it.each([
    [{ status: 'created', details: playable, deployment_approved: false }, 'manual_deploy'],
    [{ status: 'created', details: {}, deployment_approved: false }, 'will_deploy'],
    [{ status: 'blocked', details: playable, deployment_approved: true }, 'manual_deploy'],
    [{ status: 'blocked', details: playable, deployment_approved: false }, 'blocked'],
    [{ status: 'blocked', details: {}, deployment_approved: true }, 'blocked'],
    [{ status: 'running', details: playable, deployment_approved: false }, 'running'],
    [{ status: 'success', details: {}, deployment_approved: null }, 'success'],
    [{ status: 'failed', details: {}, deployment_approved: null }, 'failed'],
    [{ status: 'canceled', details: {}, deployment_approved: null }, 'canceled'],
    [{ status: 'skipped', details: {}, deployment_approved: null }, 'skipped'],
  ] as const)('%o is shown as %s', (deployment, shown) => {
    expect(displayedStatus(deployment)).toBe(shown);
  });
});

describe('deploymentsPollInterval', () => {
  it('starts at 30 s and grows fourfold to at most 240 s', () => {
    expect([1, 2, 3, 4, 10].map(deploymentsPollInterval)).toEqual([30_000, 120_000, 240_000, 240_000, 240_000]);
    expect(deploymentsPollInterval(0)).toBe(30_000);
  });
});

describe('impactedTitle', () => {
  it('counts environments', () => {
    expect(impactedTitle(1)).toBe('1 environment impacted.');
    expect(impactedTitle(4)).toBe('4 environments impacted.');
  });
});
