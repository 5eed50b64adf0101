import { describe, expect, it } from 'vitest';
import { planState } from './external-state.js';

describe('planState: a posted state applied to a commit status job (GitLab apply_job_state!)', () => {
  it.each([
    ['created', 'pending', ['pending']],
    ['created', 'running', ['pending', 'running']],
    ['pending', 'running', ['running']],
    ['created', 'success', ['success']],
    ['running', 'success', ['success']],
    ['pending', 'failed', ['failed']],
    ['running', 'canceled', ['canceled']],
    ['created', 'skipped', ['skipped']],
  ] as const)('from %s, %s passes through %j', (from, state, statuses) => {
    const plan = planState(from, state);
    expect(plan.ok && plan.path.map((step) => step.to)).toEqual(statuses);
  });

  it.each([
    ['running', 'running', 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")'],
    ['pending', 'pending', 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")'],
    ['running', 'pending', 'Cannot transition status via :enqueue from :running (Reason(s): Status cannot transition via "enqueue")'],
    ['running', 'skipped', 'Cannot transition status via :skip from :running (Reason(s): Status cannot transition via "skip")'],
  ] as const)('from %s, %s is refused with GitLab\'s message', (from, state, message) => {
    expect(planState(from, state)).toEqual({ ok: false, message });
  });
});
