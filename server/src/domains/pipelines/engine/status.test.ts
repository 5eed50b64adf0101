import { describe, expect, it } from 'vitest';
import { STATUSES, transition, type JobEvent, type Status } from './status.js';

/** Every (status, event) pair: the one the table allows, and null for every other. */
const ALLOWED: Record<JobEvent, Partial<Record<Status, Status>>> = {
  process: { skipped: 'created', manual: 'created' },
  enqueue: { created: 'pending', skipped: 'pending', manual: 'pending', scheduled: 'pending' },
  wait_for_resource: { created: 'waiting_for_resource', skipped: 'waiting_for_resource', manual: 'waiting_for_resource', scheduled: 'waiting_for_resource' },
  enqueue_waiting_for_resource: { waiting_for_resource: 'pending' },
  actionize: { created: 'manual' },
  schedule: { created: 'scheduled' },
  unschedule: { scheduled: 'manual' },
  enqueue_scheduled: { scheduled: 'pending' },
  run: { pending: 'running' },
  success: { created: 'success', waiting_for_resource: 'success', preparing: 'success', pending: 'success', running: 'success' },
  drop: { created: 'failed', waiting_for_resource: 'failed', preparing: 'failed', pending: 'failed', running: 'failed', scheduled: 'failed' },
  skip: { created: 'skipped', waiting_for_resource: 'skipped', preparing: 'skipped', pending: 'skipped' },
  cancel: {
    created: 'canceled',
    waiting_for_resource: 'canceled',
    preparing: 'canceled',
    pending: 'canceled',
    running: 'canceled',
    manual: 'canceled',
    scheduled: 'canceled',
  },
  start_cancel: { running: 'canceling' },
  finish_cancel: { canceling: 'canceled' },
};

describe('the job state machine (GitLab’s CommitStatus and Ci::Build events)', () => {
  const rows = (Object.keys(ALLOWED) as JobEvent[]).flatMap((event) => STATUSES.map((from) => ({ event, from, to: ALLOWED[event][from] ?? null })));
  it.each(rows)('$event from $from → $to', ({ event, from, to }) => {
    expect(transition(from, event)).toBe(to);
  });

  it('finished jobs accept no event but a retry’s copy (success, failed, canceled are final)', () => {
    for (const from of ['success', 'failed', 'canceled'] as const) {
      for (const event of Object.keys(ALLOWED) as JobEvent[]) expect(transition(from, event)).toBeNull();
    }
  });
});
