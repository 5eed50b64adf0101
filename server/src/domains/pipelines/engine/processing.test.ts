/**
 * Pipeline processing scenarios in the form of GitLab's own processing specs: a configuration,
 * the statuses after creation, then events on jobs and the statuses after each. The
 * configuration goes through the real compiler; events go through the transition table.
 */
import { describe, expect, it } from 'vitest';
import { compilePipelineConfig } from '../config/compile.js';
import { memoryRepository, pushContext } from '../config/test-context.js';
import { jobsToReset, nextPipelineStatus, pipelineStatus, processJobs, stageStatus, type ProcessableJob } from './processing.js';
import { transition, type JobEvent, type Status } from './status.js';

interface Expectation {
  pipeline: Status;
  stages?: Record<string, Status>;
  jobs: Record<string, Status>;
}
type Step = { event: 'success' | 'drop' | 'cancel' | 'enqueue' | 'play' | 'retry'; jobs?: string[]; expect: Expectation };

class Simulation {
  private nextId = 1;
  jobs: (ProcessableJob & { retried: boolean; stage: string })[] = [];
  pipeline: Status = 'created';
  constructor(private readonly stages: string[]) {}

  static async create(yaml: string): Promise<Simulation> {
    const result = await compilePipelineConfig(yaml, pushContext(), memoryRepository({ '': {} }));
    if (result.status !== 'created') throw new Error(JSON.stringify(result));
    const sim = new Simulation(result.plan.stages);
    for (const job of result.plan.jobs) {
      sim.jobs.push({
        id: sim.nextId++,
        name: job.name,
        stage: job.stage,
        stageIdx: job.stageIdx,
        when: job.when,
        allowFailure: job.allowFailure,
        needs: job.needs?.map((need) => need.name) ?? null,
        status: 'created',
        retried: false,
      });
    }
    sim.process();
    return sim;
  }

  latest() {
    return this.jobs.filter((job) => !job.retried);
  }
  job(name: string) {
    return this.latest().find((job) => job.name === name)!;
  }
  process() {
    for (const update of processJobs(this.latest())) this.job(this.jobs.find((j) => j.id === update.id)!.name).status = update.to;
    this.pipeline = nextPipelineStatus(this.pipeline, pipelineStatus(this.latest()));
  }
  apply(event: JobEvent, name: string) {
    const job = this.job(name);
    const to = transition(job.status, event);
    if (!to) throw new Error(`${event} not allowed from ${job.status}`);
    job.status = to;
  }
  retry(name: string, enqueueIfActionable: boolean) {
    const old = this.job(name);
    old.retried = true;
    const copy = { ...old, id: this.nextId++, retried: false, status: 'created' as Status };
    this.jobs.push(copy);
    if (enqueueIfActionable && (copy.when === 'manual' || copy.when === 'delayed')) copy.status = 'pending';
    for (const id of jobsToReset(copy, this.latest())) this.jobs.find((j) => j.id === id)!.status = 'created';
  }
  step(step: Step) {
    if (step.event === 'retry' && !step.jobs) {
      for (const job of this.latest().filter((j) => j.status === 'failed' || j.status === 'canceled')) this.retry(job.name, false);
      for (const job of this.latest().filter((j) => j.status === 'skipped')) job.status = 'created';
    } else {
      for (const name of step.jobs ?? []) {
        if (step.event === 'retry') this.retry(name, true);
        else if (step.event === 'play') {
          this.apply('enqueue', name);
          for (const id of jobsToReset(this.job(name), this.latest())) this.jobs.find((j) => j.id === id)!.status = 'created';
        } else this.apply(step.event, name);
      }
    }
    this.process();
  }
  snapshot(): Expectation {
    const latest = this.latest();
    return {
      pipeline: this.pipeline,
      stages: Object.fromEntries(this.stages.filter((s) => latest.some((j) => j.stage === s)).map((s) => [s, stageStatus(latest.filter((j) => j.stage === s))])),
      jobs: Object.fromEntries(latest.map((job) => [job.name, job.status])),
    };
  }
}

const scenarios: { name: string; config: string; init: Expectation; steps: Step[] }[] = [
  {
    name: 'stage: a failed build skips the later stages',
    config: 'build:\n  stage: build\n  script: x\ntest:\n  stage: test\n  script: x\ndeploy:\n  stage: deploy\n  script: x\n',
    init: { pipeline: 'pending', stages: { build: 'pending', test: 'created', deploy: 'created' }, jobs: { build: 'pending', test: 'created', deploy: 'created' } },
    steps: [{ event: 'drop', jobs: ['build'], expect: { pipeline: 'failed', stages: { build: 'failed', test: 'skipped', deploy: 'skipped' }, jobs: { build: 'failed', test: 'skipped', deploy: 'skipped' } } }],
  },
  {
    name: 'stage: a canceled build skips on_success and on_failure jobs alike',
    config: 'build:\n  stage: build\n  script: x\ntest1:\n  stage: test\n  script: x\ntest2:\n  stage: test\n  when: on_failure\n  script: x\ndeploy:\n  stage: deploy\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', test1: 'created', test2: 'created', deploy: 'created' } },
    steps: [{ event: 'cancel', jobs: ['build'], expect: { pipeline: 'canceled', stages: { build: 'canceled', test: 'skipped', deploy: 'skipped' }, jobs: { build: 'canceled', test1: 'skipped', test2: 'skipped', deploy: 'skipped' } } }],
  },
  {
    name: 'stage: on_failure runs after a failure, always runs regardless',
    config: 'build:\n  stage: build\n  script: x\nrollback:\n  stage: test\n  when: on_failure\n  script: x\ncleanup:\n  stage: deploy\n  when: always\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', rollback: 'created', cleanup: 'created' } },
    steps: [
      { event: 'drop', jobs: ['build'], expect: { pipeline: 'running', jobs: { build: 'failed', rollback: 'pending', cleanup: 'created' } } },
      { event: 'success', jobs: ['rollback'], expect: { pipeline: 'running', jobs: { build: 'failed', rollback: 'success', cleanup: 'pending' } } },
      { event: 'success', jobs: ['cleanup'], expect: { pipeline: 'failed', jobs: { build: 'failed', rollback: 'success', cleanup: 'success' } } },
    ],
  },
  {
    name: 'stage: on_failure is skipped after a success',
    config: 'build:\n  stage: build\n  script: x\nrollback:\n  stage: test\n  when: on_failure\n  script: x\ndeploy:\n  stage: deploy\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', rollback: 'created', deploy: 'created' } },
    steps: [{ event: 'success', jobs: ['build'], expect: { pipeline: 'running', jobs: { build: 'success', rollback: 'skipped', deploy: 'pending' } } }],
  },
  {
    name: 'stage: a failure that is allowed lets the next stage run (success with warnings)',
    config: 'build:\n  stage: build\n  allow_failure: true\n  script: x\ntest:\n  stage: test\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', test: 'created' } },
    steps: [
      { event: 'drop', jobs: ['build'], expect: { pipeline: 'pending', jobs: { build: 'failed', test: 'pending' } } },
      { event: 'success', jobs: ['test'], expect: { pipeline: 'success', jobs: { build: 'failed', test: 'success' } } },
    ],
  },
  {
    name: 'stage: a blocking manual job (allow_failure: false) holds the later stages',
    config: 'build:\n  stage: build\n  script: x\napprove:\n  stage: test\n  when: manual\n  allow_failure: false\n  script: x\ndeploy:\n  stage: deploy\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', approve: 'created', deploy: 'created' } },
    steps: [
      { event: 'success', jobs: ['build'], expect: { pipeline: 'manual', stages: { build: 'success', test: 'manual', deploy: 'created' }, jobs: { build: 'success', approve: 'manual', deploy: 'created' } } },
      { event: 'play', jobs: ['approve'], expect: { pipeline: 'running', jobs: { build: 'success', approve: 'pending', deploy: 'created' } } },
      { event: 'success', jobs: ['approve'], expect: { pipeline: 'running', jobs: { build: 'success', approve: 'success', deploy: 'pending' } } },
    ],
  },
  {
    name: 'stage: an optional manual job, played, failed, retried with the pipeline and alone',
    config: 'test1:\n  script: x\ntest2:\n  when: manual\n  script: x\n',
    init: { pipeline: 'pending', stages: { test: 'pending' }, jobs: { test1: 'pending', test2: 'manual' } },
    steps: [
      { event: 'success', jobs: ['test1'], expect: { pipeline: 'success', jobs: { test1: 'success', test2: 'manual' } } },
      { event: 'play', jobs: ['test2'], expect: { pipeline: 'running', jobs: { test1: 'success', test2: 'pending' } } },
      { event: 'drop', jobs: ['test2'], expect: { pipeline: 'success', jobs: { test1: 'success', test2: 'failed' } } },
      // retrying the pipeline makes the manual job manual again; retrying the job runs it
      { event: 'retry', expect: { pipeline: 'success', jobs: { test1: 'success', test2: 'manual' } } },
      { event: 'play', jobs: ['test2'], expect: { pipeline: 'running', jobs: { test1: 'success', test2: 'pending' } } },
      { event: 'drop', jobs: ['test2'], expect: { pipeline: 'success', jobs: { test1: 'success', test2: 'failed' } } },
      { event: 'retry', jobs: ['test2'], expect: { pipeline: 'running', jobs: { test1: 'success', test2: 'pending' } } },
    ],
  },
  {
    name: 'dag: a failed build skips what needs it, directly or not',
    config: 'build:\n  stage: build\n  script: x\ntest:\n  stage: test\n  script: x\ndeploy:\n  stage: deploy\n  when: manual\n  needs: [test]\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', test: 'created', deploy: 'created' } },
    steps: [{ event: 'drop', jobs: ['build'], expect: { pipeline: 'failed', stages: { build: 'failed', test: 'skipped', deploy: 'skipped' }, jobs: { build: 'failed', test: 'skipped', deploy: 'skipped' } } }],
  },
  {
    name: 'dag: an unplayed optional manual need skips the job; playing it and failing skips on_failure too',
    config: 'test:\n  stage: test\n  when: manual\n  allow_failure: true\n  script: x\ndeploy:\n  stage: deploy\n  when: on_failure\n  needs: [test]\n  script: x\n',
    init: { pipeline: 'skipped', stages: { test: 'skipped', deploy: 'skipped' }, jobs: { test: 'manual', deploy: 'skipped' } },
    steps: [
      { event: 'play', jobs: ['test'], expect: { pipeline: 'pending', jobs: { test: 'pending', deploy: 'created' } } },
      { event: 'drop', jobs: ['test'], expect: { pipeline: 'success', stages: { test: 'success', deploy: 'skipped' }, jobs: { test: 'failed', deploy: 'skipped' } } },
    ],
  },
  {
    name: 'dag: a job with empty needs starts at once, whatever its stage',
    config: 'build:\n  stage: build\n  script: x\nlint:\n  stage: test\n  needs: []\n  script: x\ndeploy:\n  stage: deploy\n  needs: [build]\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', lint: 'pending', deploy: 'created' } },
    steps: [
      { event: 'success', jobs: ['build'], expect: { pipeline: 'running', jobs: { build: 'success', lint: 'pending', deploy: 'pending' } } },
      { event: 'drop', jobs: ['lint'], expect: { pipeline: 'running', jobs: { build: 'success', lint: 'failed', deploy: 'pending' } } },
      { event: 'success', jobs: ['deploy'], expect: { pipeline: 'failed', jobs: { build: 'success', lint: 'failed', deploy: 'success' } } },
    ],
  },
  {
    name: 'dag: needs within one stage',
    config: 'a:\n  script: x\nb:\n  needs: [a]\n  script: x\n',
    init: { pipeline: 'pending', jobs: { a: 'pending', b: 'created' } },
    steps: [{ event: 'success', jobs: ['a'], expect: { pipeline: 'running', jobs: { a: 'success', b: 'pending' } } }],
  },
  {
    name: 'delayed: scheduled after the earlier stages succeed',
    config: 'build:\n  stage: build\n  script: x\ndeploy:\n  stage: deploy\n  when: delayed\n  start_in: 30 minutes\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', deploy: 'created' } },
    steps: [{ event: 'success', jobs: ['build'], expect: { pipeline: 'scheduled', jobs: { build: 'success', deploy: 'scheduled' } } }],
  },
  {
    name: 'stage: a played manual job resets the skipped jobs after it',
    config: 'build:\n  stage: build\n  script: x\nmanual:\n  stage: build\n  when: manual\n  allow_failure: true\n  script: x\nrollback:\n  stage: test\n  when: on_failure\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', manual: 'manual', rollback: 'created' } },
    steps: [
      { event: 'success', jobs: ['build'], expect: { pipeline: 'success', jobs: { build: 'success', manual: 'manual', rollback: 'skipped' } } },
      { event: 'play', jobs: ['manual'], expect: { pipeline: 'running', jobs: { build: 'success', manual: 'pending', rollback: 'created' } } },
      { event: 'success', jobs: ['manual'], expect: { pipeline: 'success', jobs: { build: 'success', manual: 'success', rollback: 'skipped' } } },
    ],
  },
  {
    name: 'dag: on_failure after a failed build, and what needs it runs after it',
    config: 'build:\n  stage: build\n  script: x\ntest:\n  stage: test\n  when: on_failure\n  script: x\ndeploy:\n  stage: deploy\n  needs: [test]\n  script: x\n',
    init: { pipeline: 'pending', jobs: { build: 'pending', test: 'created', deploy: 'created' } },
    steps: [
      { event: 'drop', jobs: ['build'], expect: { pipeline: 'running', stages: { build: 'failed', test: 'pending', deploy: 'created' }, jobs: { build: 'failed', test: 'pending', deploy: 'created' } } },
      { event: 'success', jobs: ['test'], expect: { pipeline: 'running', jobs: { build: 'failed', test: 'success', deploy: 'pending' } } },
      { event: 'success', jobs: ['deploy'], expect: { pipeline: 'failed', jobs: { build: 'failed', test: 'success', deploy: 'success' } } },
    ],
  },
  {
    name: 'dag: a retried build brings back the jobs its failure skipped; the pipeline runs again',
    config: 'build:\n  script: x\ntest:\n  needs: [build]\n  script: x\ndeploy:\n  needs: [test]\n  script: x\n',
    init: { pipeline: 'pending', stages: { test: 'pending' }, jobs: { build: 'pending', test: 'created', deploy: 'created' } },
    steps: [
      { event: 'drop', jobs: ['build'], expect: { pipeline: 'failed', stages: { test: 'failed' }, jobs: { build: 'failed', test: 'skipped', deploy: 'skipped' } } },
      { event: 'retry', jobs: ['build'], expect: { pipeline: 'running', stages: { test: 'pending' }, jobs: { build: 'pending', test: 'created', deploy: 'created' } } },
      { event: 'success', jobs: ['build'], expect: { pipeline: 'running', stages: { test: 'running' }, jobs: { build: 'success', test: 'pending', deploy: 'created' } } },
    ],
  },
];

describe('the pipeline’s own transition', () => {
  it.each([
    { previous: 'created', computed: 'pending', next: 'pending' },
    { previous: 'failed', computed: 'pending', next: 'running' },
    { previous: 'success', computed: 'pending', next: 'running' },
    { previous: 'canceled', computed: 'pending', next: 'running' },
    { previous: 'running', computed: 'success', next: 'success' },
    { previous: 'failed', computed: 'manual', next: 'manual' },
  ] as const)('$previous with jobs $computed → $next', ({ previous, computed, next }) => {
    expect(nextPipelineStatus(previous, computed)).toBe(next);
  });
});

describe('pipeline processing (GitLab’s atomic processing)', () => {
  it.each(scenarios)('$name', async ({ config, init, steps }) => {
    const sim = await Simulation.create(config);
    const check = (expected: Expectation) => {
      const actual = sim.snapshot();
      expect(actual.jobs).toEqual(expected.jobs);
      expect(actual.pipeline).toBe(expected.pipeline);
      if (expected.stages) expect(actual.stages).toEqual(expected.stages);
    };
    check(init);
    for (const step of steps) {
      sim.step(step);
      check(step.expect);
    }
  });
});
