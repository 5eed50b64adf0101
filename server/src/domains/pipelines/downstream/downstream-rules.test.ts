import { describe, expect, it } from 'vitest';
import { bridgeStatusFromDownstream, downstreamVariables, loopDetected, preconditionFailure, triggerOf, type PreconditionFacts } from './downstream-rules.js';

describe('triggerOf (GitLab’s Ci::Bridge options)', () => {
  it('forwards yaml variables and not pipeline variables by default; expands project and branch', () => {
    expect(triggerOf({ trigger: { project: 'g/$P', branch: '$B' } }, { P: 'down', B: 'stable' })).toEqual({
      project: 'g/down',
      branch: 'stable',
      forward: { yamlVariables: true, pipelineVariables: false },
    });
    expect(triggerOf({ trigger: { include: 'child.yml', strategy: 'depend', forward: { yaml_variables: false, pipeline_variables: true } } }, {})).toEqual({
      include: 'child.yml',
      strategy: 'depend',
      forward: { yamlVariables: false, pipelineVariables: true },
    });
    expect(triggerOf({}, {})).toBeNull();
  });
});

describe('downstreamVariables (GitLab’s Downstream::Generator)', () => {
  const base = {
    yamlVariables: [{ key: 'A', value: 'yaml-$X' }, { key: 'SHARED', value: 'from-yaml' }],
    pipelineVariables: [{ key: 'SHARED', value: 'from-pipeline' }, { key: 'P', value: 'p' }],
    scheduleVariables: [{ key: 'S', value: 's' }],
    expansion: { X: 'x' },
  };
  it.each([
    [{ yamlVariables: true, pipelineVariables: false }, [['A', 'yaml-x'], ['SHARED', 'from-yaml']]],
    [{ yamlVariables: false, pipelineVariables: true }, [['SHARED', 'from-pipeline'], ['P', 'p'], ['S', 's']]],
    [{ yamlVariables: true, pipelineVariables: true }, [['A', 'yaml-x'], ['SHARED', 'from-pipeline'], ['P', 'p'], ['S', 's']]],
    [{ yamlVariables: false, pipelineVariables: false }, []],
  ])('forward %o → %o', (forward, expected) => {
    expect(downstreamVariables({ ...base, forward }).map((v) => [v.key, v.value])).toEqual(expected);
  });
});

describe('preconditionFailure (GitLab’s order of checks)', () => {
  const child: PreconditionFacts = {
    trigger: { include: 'c.yml', forward: { yamlVariables: true, pipelineVariables: false } },
    downstreamVisible: true,
    sameProject: true,
    selfAndProjectAncestors: 1,
    hierarchySize: 1,
    mayCreate: true,
    selfAndUpstreams: [{ projectId: 1, ref: 'main', source: 'push' }],
  };
  const multi: PreconditionFacts = { ...child, trigger: { project: 'g/p', forward: child.trigger.forward }, sameProject: false };
  it.each([
    ['a child of a root pipeline', child, null],
    ['a grandchild (depth 3)', { ...child, selfAndProjectAncestors: 2 }, null],
    ['a great-grandchild', { ...child, selfAndProjectAncestors: 3 }, 'reached_max_descendant_pipelines_depth'],
    ['a project nobody may see first', { ...multi, downstreamVisible: false, mayCreate: false }, 'downstream_bridge_project_not_found'],
    ['a multi-project trigger of its own project', { ...multi, sameProject: true }, 'invalid_bridge_trigger'],
    ['a tree of 1000 pipelines', { ...multi, hierarchySize: 1000 }, 'reached_max_pipeline_hierarchy_size'],
    ['no right to run the downstream ref', { ...multi, mayCreate: false }, 'insufficient_bridge_permissions'],
    ['multi-project depth is not limited', { ...multi, selfAndProjectAncestors: 5 }, null],
  ] as const)('%s → %s', (_name, facts, expected) => {
    expect(preconditionFailure(facts)).toBe(expected);
  });

  it('detects a loop when the same project, ref and source come three times up the chain', () => {
    const a = { projectId: 1, ref: 'main', source: 'pipeline' as const };
    const b = { projectId: 2, ref: 'main', source: 'pipeline' as const };
    expect(loopDetected([a, b, a, b])).toBe(false);
    expect(loopDetected([a, b, a, b, a])).toBe(true);
    expect(loopDetected([{ ...a, source: 'parent_pipeline' }, { ...a, source: 'parent_pipeline' }, { ...a, source: 'parent_pipeline' }])).toBe(false);
  });
});

describe('bridgeStatusFromDownstream', () => {
  it.each([
    ['depend', 'success', 'success'],
    ['depend', 'failed', 'failed'],
    ['depend', 'skipped', 'failed'],
    ['depend', 'canceled', 'canceled'],
    ['depend', 'running', null],
    ['depend', 'manual', null],
    ['mirror', 'manual', 'manual'],
    ['mirror', 'skipped', 'skipped'],
    [undefined, 'failed', null],
  ] as const)('%s, downstream %s → %s', (strategy, status, expected) => {
    expect(bridgeStatusFromDownstream(strategy, status)).toBe(expected);
  });
});
