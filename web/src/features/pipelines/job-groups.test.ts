import { describe, expect, it } from 'vitest';
import type { Job } from './api';
import { dependencyLayers, groupStatus, needLinks, needsByJob, needsChain, stageViews } from './job-groups';

const job = (name: string, stage: string, status = 'success', allowFailure = false): Job =>
  ({ id: name.length, name, stage, status, allow_failure: allowFailure, detailed_status: undefined }) as unknown as Job;

describe('groupStatus', () => {
  it.each([
    [['success', 'success'], [false, false], 'passed'],
    [['success', 'failed'], [false, false], 'failed'],
    [['success', 'running'], [false, false], 'running'],
    [['pending', 'created'], [false, false], 'pending'],
    [['success', 'failed'], [false, true], 'warning'],
    [['manual', 'manual'], [false, false], 'manual'],
  ])('%j (allow_failure %j) → %s', (statuses, allow, text) => {
    expect(groupStatus(statuses.map((status, i) => job(`rspec ${i + 1}/2`, 'test', status, allow[i])))).toMatchObject({ text, has_details: false });
  });
});

describe('needs', () => {
  const jobs = [job('compile', 'build'), job('lint', 'build'), job('rspec 1/2', 'test'), job('rspec 2/2', 'test'), job('staged', 'test'), job('deploy', 'deploy')];
  const stages = stageViews(jobs);
  const needs = needsByJob({
    stages: [
      { name: 'test', groups: [{ name: 'rspec', size: 2, jobs: [{ name: 'rspec 1/2', needs: ['compile'] }, { name: 'rspec 2/2', needs: ['compile'] }] }] },
      { name: 'deploy', groups: [{ name: 'deploy', size: 1, jobs: [{ name: 'deploy', needs: ['rspec 1/2', 'rspec 2/2', 'lint'] }] }] },
    ],
  });

  it('groups the stages’ jobs into cards', () => {
    expect(stages.map((stage) => [stage.name, stage.groups.map((group) => `${group.name}×${group.jobs.length}`)])).toEqual([
      ['build', ['compile×1', 'lint×1']],
      ['test', ['rspec×2', 'staged×1']],
      ['deploy', ['deploy×1']],
    ]);
  });

  it('draws one link per card and needed card', () => {
    expect(needLinks(stages, needs)).toEqual([
      { from: 'rspec', to: 'compile' },
      { from: 'deploy', to: 'rspec' },
      { from: 'deploy', to: 'lint' },
    ]);
  });

  it('follows the needs chain', () => {
    const links = needLinks(stages, needs);
    expect([...needsChain(links, 'deploy')].sort()).toEqual(['compile', 'lint', 'rspec']);
    expect([...needsChain(links, 'compile')]).toEqual([]);
  });

  it('lays the cards out by needs; a stage-scheduled card after every earlier stage', () => {
    const layers = dependencyLayers(stages, needLinks(stages, needs), needs);
    expect(layers.map((layer) => layer.map((group) => group.name))).toEqual([['compile', 'lint'], ['rspec', 'staged'], ['deploy']]);
  });
});
