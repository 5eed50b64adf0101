// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import type { Project } from '../../lib/gitlab-types';
import { NewPipelinePage } from './NewPipelinePage';

const PROJECT = { id: 1, path_with_namespace: 'acme/app', default_branch: 'main', permissions: { project_access: { access_level: 30 }, group_access: null } } as unknown as Project;

describe('NewPipelinePage ("Run pipeline" with variables)', () => {
  it('posts the ref and the filled variables (blank rows left out), and shows GitLab’s 400 lines', async () => {
    const { sent } = fakeNetwork([
      on('POST', '/api/v4/projects/1/pipeline', () => json(400, { message: { base: ['Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.'] } })),
    ]);
    renderInApp(<NewPipelinePage project={PROJECT} />);
    const form = screen.getByRole('form', { name: 'Run pipeline' });
    fireEvent.change(within(form).getByLabelText('Input variable key 1'), { target: { value: ' DEPLOY_TO ' } });
    fireEvent.change(within(form).getByLabelText('Input variable value 1'), { target: { value: 'staging' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add variable' }));
    fireEvent.change(within(form).getByLabelText('Variable type 2'), { target: { value: 'file' } });
    fireEvent.change(within(form).getByLabelText('Input variable key 2'), { target: { value: 'CONFIG' } });
    fireEvent.change(within(form).getByLabelText('Input variable value 2'), { target: { value: 'a: 1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add variable' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Run pipeline' }));
    await vi.waitFor(() => expect(sent.some((request) => request.method === 'POST')).toBe(true));
    expect(sent.find((request) => request.method === 'POST')!.body).toEqual({
      ref: 'main',
      variables: [
        { key: 'DEPLOY_TO', value: 'staging', variable_type: 'env_var' },
        { key: 'CONFIG', value: 'a: 1', variable_type: 'file' },
      ],
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Pipeline will not run for the selected trigger.');
  });
});
