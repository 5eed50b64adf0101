/**
 * `needs` and `dependencies` between jobs, as GitLab checks them: first against the whole
 * configuration (YamlProcessor: the job exists, is in the same or an earlier stage, no cycle), then
 * against the jobs that rules kept in the pipeline (Seed::Build: a non-optional need on an absent
 * job is an error, an optional one is dropped, at most MAX_NEEDS_PER_JOB per job).
 */
import { MAX_NEEDS_PER_JOB } from './limits.js';
import type { JobDefinition } from './job.js';
import type { PlannedNeed } from './types.js';

/** The first logical error of the configuration's needs/dependencies, or null. */
export function validateNeedsAndDependencies(jobs: Map<string, JobDefinition>, stages: string[]): string | null {
  for (const job of jobs.values()) {
    const stageIndex = stages.indexOf(job.stage);
    for (const dependency of job.dependencies ?? []) {
      const target = jobs.get(dependency);
      if (!target) return `${job.name} job: undefined dependency: ${dependency}`;
      if (stages.indexOf(target.stage) > stageIndex) {
        return `${job.name} job: dependency ${dependency} is not defined in current or prior stages`;
      }
    }
    for (const need of job.needs?.jobs ?? []) {
      const target = jobs.get(need.name);
      if (!target) return `${job.name} job: undefined need: ${need.name}`;
      if (stages.indexOf(target.stage) > stageIndex) return `${job.name} job: need ${need.name} is not defined in current or prior stages`;
    }
    if (job.dependencies && job.needs) {
      const needed = new Set(job.needs.jobs.map((need) => need.name));
      const missing = job.dependencies.filter((dependency) => !needed.has(dependency));
      if (missing.length > 0) return `jobs:${job.name} dependencies the ${missing.join(', ')} should be part of needs`;
    }
  }
  return hasCycle(jobs) ? 'The pipeline has circular dependencies' : null;
}

/** Depth-first search with colours, iterative so a long chain cannot overflow the stack. */
function hasCycle(jobs: Map<string, JobDefinition>): boolean {
  const state = new Map<string, 1 | 2>();
  for (const start of jobs.keys()) {
    if (state.has(start)) continue;
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const needs = jobs.get(top.name)?.needs?.jobs ?? [];
      if (top.next >= needs.length) {
        state.set(top.name, 2);
        stack.pop();
        continue;
      }
      const child = needs[top.next++]!.name;
      if (!jobs.has(child)) continue;
      if (state.get(child) === 1) return true;
      if (!state.has(child)) {
        state.set(child, 1);
        stack.push({ name: child, next: 0 });
      }
    }
  }
  return false;
}

export interface SeededInstance {
  name: string;
  baseName: string;
  matrix?: Record<string, string>;
}

/**
 * The planned needs of one job instance: each need names every instance of the needed job
 * (all `parallel` instances, or the `needs:parallel:matrix` ones) that rules kept.
 */
export function resolveNeeds(
  jobName: string,
  needs: JobDefinition['needs'],
  present: readonly SeededInstance[],
): { needs: PlannedNeed[] } | { error: string } {
  const resolved: PlannedNeed[] = [];
  for (const need of needs?.jobs ?? []) {
    let instances = present.filter((instance) => instance.baseName === need.name);
    if (need.matrix) {
      instances = instances.filter((instance) =>
        need.matrix!.some((wanted) => instance.matrix && Object.entries(wanted).every(([k, v]) => instance.matrix![k] === v)),
      );
    }
    if (instances.length === 0) {
      if (need.optional) continue;
      return {
        error: `'${jobName}' job needs '${need.name}' job, but '${need.name}' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.`,
      };
    }
    for (const instance of instances) resolved.push({ name: instance.name, artifacts: need.artifacts, optional: need.optional });
  }
  const count = resolved.length + (needs?.cross.length ?? 0);
  if (count > MAX_NEEDS_PER_JOB) {
    return {
      error: `${jobName}: one job can only need ${MAX_NEEDS_PER_JOB} others, but you have listed ${count}. See needs keyword documentation for more details`,
    };
  }
  return { needs: resolved };
}
