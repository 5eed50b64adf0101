import { describe, expect, it } from 'vitest';
import { downstreamShown, stageDropdownJobs } from './mini-graph';

const job = (name: string, status: string) => ({ name, status });

describe('stageDropdownJobs', () => {
  it('lists failed jobs first, then the rest, each in the pipeline’s order', () => {
    const jobs = [job('a', 'success'), job('b', 'failed'), job('c', 'running'), job('d', 'failed')];
    expect(stageDropdownJobs(jobs).map((j) => j.name)).toEqual(['b', 'd', 'a', 'c']);
  });

  it('narrows to names containing the search, ignoring case and surrounding spaces', () => {
    const jobs = [job('rspec 1/3', 'success'), job('RSpec 2/3', 'failed'), job('lint', 'failed')];
    expect(stageDropdownJobs(jobs, '  rspec ').map((j) => j.name)).toEqual(['RSpec 2/3', 'rspec 1/3']);
    expect(stageDropdownJobs(jobs, 'nothing')).toEqual([]);
  });
});

describe('downstreamShown', () => {
  const pipeline = (id: number) => ({ id }) as never;

  it('shows at most three downstream pipelines and counts the others', () => {
    const bridges = [1, 2, 3, 4, 5].map((id) => ({ downstream_pipeline: pipeline(id) }));
    const { shown, more } = downstreamShown(bridges);
    expect(shown.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(more).toBe(2);
  });

  it('skips trigger jobs that have not created their pipeline yet', () => {
    expect(downstreamShown([{ downstream_pipeline: null }, { downstream_pipeline: pipeline(7) }])).toEqual({ shown: [pipeline(7)], more: 0 });
  });
});
