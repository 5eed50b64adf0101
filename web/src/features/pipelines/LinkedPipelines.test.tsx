// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInApp } from '../../test-support/component';
import type { LinkedPipeline } from './api';
import { LinkedPipelines } from './LinkedPipelines';

const status = (group: string, text: string) => ({ icon: `status_${group}`, text, label: text, group, tooltip: text, has_details: true, details_path: null });
const linked = (overrides: Partial<LinkedPipeline>): LinkedPipeline => ({
  id: 12,
  iid: 2,
  active: true,
  source: 'parent_pipeline',
  path: '/acme/app/-/pipelines/12',
  details: { status: status('running', 'running') },
  project: { id: 1, name: 'App', full_path: 'acme/app', full_name: 'Acme / App' },
  source_job: { name: 'trigger-child' },
  ...overrides,
});

describe('LinkedPipelines', () => {
  it('labels a same-project pipeline as the child, another project’s by its name, and links each with its status', () => {
    renderInApp(
      <LinkedPipelines
        kind="Downstream"
        projectId={1}
        pipelines={[linked({}), linked({ id: 13, source: 'pipeline', path: '/ops/deploy/-/pipelines/13', details: { status: status('success', 'passed') }, project: { id: 2, name: 'Deploy', full_path: 'ops/deploy', full_name: 'Ops / Deploy' }, source_job: { name: 'deploy' } })]}
      />,
    );
    const region = screen.getByRole('region', { name: 'Downstream pipelines' });
    const child = screen.getByRole('link', { name: 'Downstream pipeline #12 of App: running' });
    expect(child.textContent).toBe('Child pipeline');
    expect(child.getAttribute('href')).toBe('/acme/app/-/pipelines/12');
    const other = screen.getByRole('link', { name: 'Downstream pipeline #13 of Deploy: passed' });
    expect(other.textContent).toBe('Ops / Deploy');
    expect(region.textContent).toContain('#13 · deploy');
  });

  it('calls the same-project upstream pipeline the parent, and shows nothing without pipelines', () => {
    const { container } = renderInApp(<LinkedPipelines kind="Upstream" projectId={1} pipelines={[linked({ source: 'push' })]} />);
    expect(screen.getByRole('link', { name: 'Upstream pipeline #12 of App: running' }).textContent).toBe('Parent pipeline');
    expect(container).toBeTruthy();
    renderInApp(<LinkedPipelines kind="Downstream" projectId={1} pipelines={[]} />);
    expect(screen.queryByRole('region', { name: 'Downstream pipelines' })).toBeNull();
  });
});
