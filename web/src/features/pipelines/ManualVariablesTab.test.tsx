// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { ManualVariablesTab, VARIABLES_PER_PAGE } from './ManualVariablesTab';
import type { ManualVariable } from './manual-variables-api';

function answer(nodes: ManualVariable[]) {
  return fakeNetwork([on('GET', '/api/graphql', () => json(200, { data: { project: { id: 'p', pipeline: { id: 'x', manualVariables: { count: nodes.length, nodes } } } } }))]);
}

const render = () => renderInApp(<ManualVariablesTab fullPath="acme/app" pipelineIid={4} />, { path: '/acme/app/-/pipelines/9/manual_variables' });

const cells = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

describe('ManualVariablesTab (GitLab’s manual_variables tab)', () => {
  it('masks the values until a caller who may read them reveals them, and hides them again', async () => {
    answer([
      { id: 'gid://gitlab/Ci::PipelineVariable/1', key: 'DEPLOY_ENV', value: 'staging' },
      { id: 'gid://gitlab/Ci::PipelineVariable/2', key: 'EMPTY', value: '' },
    ]);
    render();
    const table = await screen.findByRole('table', { name: 'Manual variables' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Key', 'Value']);
    expect(cells(table)).toEqual([
      ['DEPLOY_ENV', '****'],
      ['EMPTY', '****'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Reveal values' }));
    expect(cells(table)).toEqual([
      ['DEPLOY_ENV', 'staging'],
      ['EMPTY', ''],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Hide values' }));
    expect(cells(table)[0]).toEqual(['DEPLOY_ENV', '****']);
  });

  it('gives no reveal button to a caller the server sent no values (a Reporter, another Developer)', async () => {
    answer([{ id: 'gid://gitlab/Ci::PipelineVariable/1', key: 'DEPLOY_ENV', value: null }]);
    render();
    const table = await screen.findByRole('table', { name: 'Manual variables' });
    expect(cells(table)).toEqual([['DEPLOY_ENV', '****']]);
    expect(screen.queryByRole('button', { name: 'Reveal values' })).toBeNull();
  });

  it('shows GitLab’s empty state for a pipeline run without variables', async () => {
    answer([]);
    render();
    expect(await screen.findByText('There are no manually-specified variables for this pipeline')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('pages the table by GitLab’s 15', async () => {
    answer(Array.from({ length: VARIABLES_PER_PAGE + 2 }, (_, i) => ({ id: `gid://gitlab/Ci::PipelineVariable/${i}`, key: `KEY_${i}`, value: null })));
    render();
    const table = await screen.findByRole('table', { name: 'Manual variables' });
    expect(cells(table)).toHaveLength(VARIABLES_PER_PAGE);
    fireEvent.click(screen.getByRole('link', { name: /Page 2/ }));
    expect(cells(table).map(([key]) => key)).toEqual(['KEY_15', 'KEY_16']);
  });

  it('says so when the variables cannot be read', async () => {
    fakeNetwork([on('GET', '/api/graphql', () => json(403, { errors: [{ message: '403 Forbidden - CSRF token is invalid or missing' }] }))]);
    render();
    expect(await screen.findByText('The variables could not be loaded.')).toBeTruthy();
  });
});
