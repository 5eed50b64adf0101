// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import type { Job } from './api';
import { JobActionButton, RunDelayedJobButton } from './JobActionButton';

const job = (icon: string, title: string, buttonTitle: string): Job =>
  ({
    id: 9,
    name: 'unit',
    status: 'failed',
    stage: 'test',
    detailed_status: { icon: 'status_failed', text: 'failed', label: 'failed', group: 'failed', tooltip: 'failed', has_details: true, details_path: null, action: { icon, title, path: '', method: 'post', button_title: buttonTitle } },
  }) as unknown as Job;

describe('JobActionButton', () => {
  it.each([
    ['retry', 'Run again', 'Run this job again', 'There was a problem running the job again.'],
    ['cancel', 'Cancel', 'Cancel this job', 'There was a problem canceling the job.'],
  ])('reports a failed %s with GitLab’s message and the server’s reason', async (icon, title, buttonTitle, message) => {
    fakeNetwork([on('POST', `/api/v4/projects/1/jobs/9/${icon}`, () => json(403, { message: '403 Forbidden' }))]);
    const onError = vi.fn();
    renderInApp(<JobActionButton projectId={1} job={job(icon, title, buttonTitle)} onError={onError} />);
    fireEvent.click(screen.getByRole('button', { name: `${buttonTitle}: unit` }));
    await waitFor(() => expect(onError).toHaveBeenCalled());
    expect(onError.mock.calls[0]![0]).toMatch(new RegExp(`^${message.replace(/[.]/g, '\\.')} `));
  });

  it('stops an environment by playing its manual stop job, without a confirmation', async () => {
    const calls: string[] = [];
    fakeNetwork([on('POST', '/api/v4/projects/1/jobs/9/play', () => (calls.push('play'), json(200, {})))]);
    renderInApp(<JobActionButton projectId={1} job={job('stop', 'Stop', 'Stop this environment')} />);
    fireEvent.click(screen.getByRole('button', { name: 'Stop this environment: unit' }));
    await waitFor(() => expect(calls).toEqual(['play']));
  });

  it('unschedules a delayed job through the web path of its action, and reports GitLab’s message when refused', async () => {
    const delayed = job('time-out', 'Unschedule', 'Unschedule job');
    delayed.detailed_status!.action!.path = '/g/p/-/jobs/9/unschedule';
    const calls: string[] = [];
    fakeNetwork([on('POST', '/g/p/-/jobs/9/unschedule', () => (calls.push('unschedule'), calls.length === 1 ? json(200, {}) : json(422, { message: 'Unprocessable entity' })))]);
    const onError = vi.fn();
    renderInApp(<JobActionButton projectId={1} job={delayed} onError={onError} />);
    const button = screen.getByRole('button', { name: 'Unschedule job: unit' });
    fireEvent.click(button);
    await waitFor(() => expect(calls).toEqual(['unschedule']));
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    expect(onError).not.toHaveBeenCalled();
    fireEvent.click(button);
    await waitFor(() => expect(onError).toHaveBeenCalled());
    expect(onError.mock.calls[0]![0]).toBe('There was a problem unscheduling the job. Unprocessable entity');
  });

  it('runs a delayed job now after GitLab’s confirmation, and nothing when it is declined', async () => {
    const delayed = { ...job('time-out', 'Unschedule', 'Unschedule job'), status: 'scheduled' } as Job;
    const calls: string[] = [];
    fakeNetwork([on('POST', '/api/v4/projects/1/jobs/9/play', () => (calls.push('play'), json(200, {})))]);
    renderInApp(<RunDelayedJobButton projectId={1} job={delayed} />);
    fireEvent.click(screen.getByRole('button', { name: 'Run job: unit' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Run the delayed job now?' });
    expect(dialog.textContent).toContain('Are you sure you want to run unit immediately? This job will run automatically after its timer finishes.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Run job: unit' }));
    await screen.findByRole('alertdialog');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(calls).toEqual(['play']));
  });

  it('offers no Run for a job that is not delayed, or to a viewer without the action', () => {
    const { container } = renderInApp(
      <>
        <RunDelayedJobButton projectId={1} job={job('retry', 'Run again', 'Run this job again')} />
        <RunDelayedJobButton projectId={1} job={{ ...job('time-out', 'Unschedule', 'Unschedule job'), status: 'scheduled', detailed_status: { ...job('x', '', '').detailed_status!, action: undefined } } as Job} />
      </>,
    );
    expect(container.querySelectorAll('button')).toHaveLength(0);
  });
});
