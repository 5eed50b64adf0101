import { describe, expect, it } from 'vitest';
import { compositeStatus, type StatusOf } from './composite.js';
import type { Status } from './status.js';

const job = (status: Status, allowFailure = false): StatusOf => ({ status, allowFailure });

describe('compositeStatus (GitLab’s Gitlab::Ci::Status::Composite)', () => {
  const cases: { jobs: StatusOf[]; dag?: boolean; status: Status | null; warnings?: boolean }[] = [
    { jobs: [], status: null },
    { jobs: [job('success')], status: 'success' },
    { jobs: [job('success'), job('skipped')], status: 'success' },
    { jobs: [job('skipped')], status: 'skipped' },
    { jobs: [job('manual', true)], status: 'skipped' },
    { jobs: [job('skipped'), job('manual', true)], status: 'skipped' },
    // a failure that is allowed counts as success, with warnings
    { jobs: [job('success'), job('failed', true)], status: 'success', warnings: true },
    { jobs: [job('canceled', true)], status: 'success', warnings: true },
    { jobs: [job('success'), job('failed')], status: 'failed' },
    { jobs: [job('failed')], status: 'failed' },
    { jobs: [job('created')], status: 'created' },
    { jobs: [job('created'), job('manual', true)], status: 'created' },
    { jobs: [job('preparing')], status: 'preparing' },
    { jobs: [job('canceled'), job('success')], status: 'canceled' },
    { jobs: [job('canceled'), job('failed')], status: 'failed' },
    { jobs: [job('pending'), job('created')], status: 'pending' },
    { jobs: [job('pending'), job('skipped')], status: 'pending' },
    { jobs: [job('pending'), job('success')], status: 'running' },
    { jobs: [job('running'), job('failed')], status: 'running' },
    // later stages waiting after a success: the pipeline is running
    { jobs: [job('success'), job('created')], status: 'running' },
    { jobs: [job('waiting_for_resource'), job('success')], status: 'waiting_for_resource' },
    // a blocking manual job
    { jobs: [job('success'), job('manual')], status: 'manual' },
    { jobs: [job('manual')], status: 'manual' },
    { jobs: [job('scheduled'), job('success')], status: 'scheduled' },
    { jobs: [job('manual'), job('scheduled')], status: 'manual' },
    { jobs: [job('preparing'), job('success')], status: 'preparing' },
    { jobs: [job('canceling'), job('success')], status: 'canceling' },
    { jobs: [job('canceling'), job('canceled')], status: 'canceling' },
    { jobs: [job('failed'), job('created')], status: 'running' },
    // needs (dag): a skipped or ignored need makes the dependant skipped
    { jobs: [job('success'), job('skipped')], dag: true, status: 'skipped' },
    { jobs: [job('success'), job('manual', true)], dag: true, status: 'skipped' },
    { jobs: [job('success'), job('failed', true)], dag: true, status: 'success', warnings: true },
    { jobs: [job('success')], dag: true, status: 'success' },
  ];
  it.each(cases)('$jobs (dag: $dag) → $status', ({ jobs, dag, status, warnings }) => {
    const result = compositeStatus(jobs, { dag });
    expect(result.status).toBe(status);
    expect(result.warnings).toBe(warnings ?? false);
  });
});
