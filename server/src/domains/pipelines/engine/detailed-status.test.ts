import { describe, expect, it } from 'vitest';
import { jobDetailedStatus, manualConfirmationMessage, stopsEnvironment, pipelineDetailedStatus, type JobStatusFacts } from './detailed-status.js';

describe('detailed_status (GitLab’s status presentation)', () => {
  it.each([
    { status: 'pending', warnings: false, icon: 'status_pending', text: 'pending', label: 'pending', group: 'pending' },
    { status: 'running', warnings: false, icon: 'status_running', text: 'running', label: 'running', group: 'running' },
    { status: 'success', warnings: false, icon: 'status_success', text: 'passed', label: 'passed', group: 'success' },
    { status: 'success', warnings: true, icon: 'status_warning', text: 'warning', label: 'passed with warnings', group: 'success-with-warnings' },
    { status: 'failed', warnings: false, icon: 'status_failed', text: 'failed', label: 'failed', group: 'failed' },
    { status: 'manual', warnings: false, icon: 'status_manual', text: 'blocked', label: 'waiting for manual action', group: 'manual' },
    { status: 'scheduled', warnings: false, icon: 'status_scheduled', text: 'delayed', label: 'waiting for delayed job', group: 'scheduled' },
    { status: 'canceled', warnings: false, icon: 'status_canceled', text: 'canceled', label: 'canceled', group: 'canceled' },
    { status: 'skipped', warnings: false, icon: 'status_skipped', text: 'skipped', label: 'skipped', group: 'skipped' },
    { status: 'created', warnings: false, icon: 'status_created', text: 'created', label: 'created', group: 'created' },
  ] as const)('pipeline $status (warnings $warnings)', ({ status, warnings, ...expected }) => {
    const detailed = pipelineDetailedStatus({ status, warnings }, '/g/p/-/pipelines/1');
    expect(detailed).toMatchObject({ ...expected, tooltip: expected.label, has_details: true, details_path: '/g/p/-/pipelines/1', illustration: null });
    expect(detailed.favicon).toMatch(/^\/assets\/ci_favicons\/favicon_status_\w+\.png$/);
  });

  const paths = { details: '/g/p/-/jobs/7', retry: '/g/p/-/jobs/7/retry', play: '/g/p/-/jobs/7/play', cancel: '/g/p/-/jobs/7/cancel' };
  const job = (facts: Partial<JobStatusFacts>): JobStatusFacts => ({ status: 'success', allowFailure: false, failureReason: null, when: 'on_success', retried: false, type: 'build', canUpdate: true, ...facts });

  it('jobs carry the action the viewer may take', () => {
    expect(jobDetailedStatus(job({ status: 'manual', when: 'manual' }), paths)).toMatchObject({ label: 'manual play action', action: { icon: 'play', path: paths.play, method: 'post' } });
    expect(jobDetailedStatus(job({ status: 'manual', when: 'manual' }), paths).action?.confirmation_message).toBeNull();
    expect(jobDetailedStatus(job({ status: 'manual', when: 'manual', manualConfirmation: 'Deploy to production?' }), paths).action).toMatchObject({ confirmation_message: 'Deploy to production?' });
    expect(jobDetailedStatus(job({ status: 'manual', when: 'manual', stopsEnvironment: true }), paths)).toMatchObject({ label: 'manual stop action', tooltip: 'manual stop action', action: { icon: 'stop', title: 'Stop', path: paths.play, method: 'post', button_title: 'Stop this environment' } });
    expect(jobDetailedStatus(job({ status: 'manual', when: 'manual', stopsEnvironment: true, canUpdate: false }), paths)).toMatchObject({ label: 'manual stop action' });
    expect(stopsEnvironment({ options: { environment: { name: 'review/x', action: 'stop' } } })).toBe(true);
    expect(stopsEnvironment({ options: { environment: { name: 'review/x' } } })).toBe(false);
    expect(stopsEnvironment({ options: {} })).toBe(false);
    expect(jobDetailedStatus(job({ status: 'scheduled', when: 'delayed' }), paths)).toMatchObject({ label: 'delayed manual action', action: { icon: 'time-out', title: 'Unschedule', path: '/g/p/-/jobs/7/unschedule', method: 'post', button_title: 'Unschedule job' } });
    expect(jobDetailedStatus(job({ status: 'scheduled', when: 'delayed', canUpdate: false }), paths).action).toBeUndefined();
    expect(jobDetailedStatus(job({ status: 'running' }), paths).action).toMatchObject({ icon: 'cancel', path: paths.cancel });
    expect(jobDetailedStatus(job({ status: 'failed', failureReason: 'script_failure' }), paths)).toMatchObject({ tooltip: 'failed - (script failure)', action: { icon: 'retry' } });
    expect(jobDetailedStatus(job({ status: 'failed', allowFailure: true }), paths)).toMatchObject({ icon: 'status_warning', group: 'failed-with-warnings', label: 'failed (allowed to fail)' });
    expect(jobDetailedStatus(job({ status: 'success', canUpdate: false }), paths).action).toBeUndefined();
    expect(jobDetailedStatus(job({ status: 'success', type: 'bridge' }), paths)).toMatchObject({ has_details: false, details_path: null });
  });

  it.each([
    ['manual', { manual_confirmation: 'Sure?' }, 'Sure?'],
    ['manual', {}, null],
    ['on_success', { manual_confirmation: 'Sure?' }, null],
  ] as const)('manualConfirmationMessage of a %s job with %o is %s', (when, options, expected) => {
    expect(manualConfirmationMessage({ when, options })).toBe(expected);
  });
});
