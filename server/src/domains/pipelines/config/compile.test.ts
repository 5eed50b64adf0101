import { describe, expect, it } from 'vitest';

import { compilePipelineConfig } from './compile.js';
import { memoryRepository, pushContext } from './test-context.js';
import type { CompileResult, PipelineContext, PlannedJob } from './types.js';
import { environmentSlug } from '../../environments/environment-rules.js';

const noFiles = memoryRepository({});

async function plan(yaml: string, context: Partial<PipelineContext> = {}) {
  const result = await compilePipelineConfig(yaml, pushContext(context), noFiles);
  if (result.status !== 'created') throw new Error(`expected a plan, got ${JSON.stringify(result)}`);
  return result.plan;
}

async function errorsOf(yaml: string, context: Partial<PipelineContext> = {}) {
  const result: CompileResult = await compilePipelineConfig(yaml, pushContext(context), noFiles);
  if (result.status !== 'error') throw new Error(`expected errors, got ${JSON.stringify(result)}`);
  return result.errors;
}

const byName = (jobs: PlannedJob[]) => Object.fromEntries(jobs.map((job) => [job.name, job]));

describe('compilePipelineConfig: a realistic pipeline', () => {
  const yaml = `
stages: [build, test, deploy]
variables:
  NODE_VERSION: "20"
  DEPLOY: "no"
default:
  image: node:$NODE_VERSION
  tags: [docker]
  retry: 1
.node: &node
  before_script:
    - npm ci
build:
  <<: *node
  stage: build
  script: npm run build
  artifacts:
    paths: [dist/]
    expire_in: 1 week
    reports:
      junit: junit.xml
unit:
  extends: .node
  stage: test
  script:
    - !reference [.node, before_script]
    - npm test
  coverage: '/Lines\\s*:\\s*(\\d+\\.?\\d*)%/'
  parallel: 2
  needs: [build]
lint:
  stage: test
  script: npm run lint
  allow_failure: true
  interruptible: true
deploy:
  stage: deploy
  script: ./deploy.sh
  environment:
    name: production
    url: https://example.com
    on_stop: stop
  resource_group: production
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      when: manual
    - when: never
stop:
  stage: deploy
  script: ./stop.sh
  environment: { name: production, action: stop }
  when: manual
`;

  it('plans the jobs GitLab would create, with their attributes resolved', async () => {
    const result = await plan(yaml);
    expect(result.stages).toEqual(['build', 'test', 'deploy']);
    const jobs = byName(result.jobs);
    expect(Object.keys(jobs)).toEqual(['build', 'unit 1/2', 'unit 2/2', 'lint', 'deploy', 'stop']);
    expect(jobs.build!.options.image).toEqual({ name: 'node:$NODE_VERSION' });
    expect(jobs.build!.options.beforeScript).toEqual(['npm ci']);
    expect(jobs.build!.options.artifacts).toMatchObject({ paths: ['dist/'], expire_in: '1 week', reports: { junit: 'junit.xml' } });
    expect(jobs.build!.tags).toEqual(['docker']);
    expect(jobs.build!.options.retry).toEqual({ max: 1, when: ['always'] });
    expect(jobs.build!.needs).toBeNull();
    expect(jobs['unit 1/2']!.options.script).toEqual(['npm ci', 'npm test']);
    expect(jobs['unit 1/2']!.options.parallel).toEqual({ number: 1, total: 2 });
    expect(jobs['unit 1/2']!.needs).toEqual([{ name: 'build', artifacts: true, optional: false }]);
    expect(jobs['unit 1/2']!.coverageRegex).toBe('Lines\\s*:\\s*(\\d+\\.?\\d*)%');
    expect(jobs.lint).toMatchObject({ allowFailure: true, interruptible: true, when: 'on_success' });
    expect(jobs.deploy).toMatchObject({ when: 'manual', allowFailure: false, environmentName: 'production', resourceGroupKey: 'production' });
    expect(jobs.stop).toMatchObject({ when: 'manual', allowFailure: true });
    expect(jobs.build!.yamlVariables).toEqual([
      { key: 'NODE_VERSION', value: '20' },
      { key: 'DEPLOY', value: 'no' },
    ]);
  });

  it('leaves the rules-only deploy job out on another branch', async () => {
    const jobs = byName((await plan(yaml, { ref: 'feature' })).jobs);
    expect(jobs.deploy).toBeUndefined();
    expect(jobs.stop).toBeDefined();
  });
});

describe('compilePipelineConfig: rules, only/except and workflow', () => {
  it('applies the matching rule’s when, start_in, allow_failure and variables', async () => {
    const jobs = byName(
      (
        await plan(`
job:
  script: echo
  variables: { LEVEL: job }
  rules:
    - if: $CI_COMMIT_TAG
      when: never
    - changes: [src/**/*]
      when: delayed
      start_in: 30 minutes
      allow_failure: true
      variables: { LEVEL: rule }
`, { changedPaths: ['src/app.ts'] })
      ).jobs,
    );
    expect(jobs.job).toMatchObject({ when: 'delayed', startIn: '30 minutes', allowFailure: true });
    expect(jobs.job!.yamlVariables).toEqual([{ key: 'LEVEL', value: 'rule' }]);
  });

  it('treats rules:changes as true when the pipeline has no changed paths (tags, web, new branches)', async () => {
    const yaml = 'job:\n  script: echo\n  rules:\n    - changes: [docs/*]\n';
    expect((await plan(yaml, { source: 'web' })).jobs).toHaveLength(1);
    const result = await compilePipelineConfig(yaml, pushContext({ changedPaths: ['src/app.ts'] }), noFiles);
    expect(result).toMatchObject({ status: 'skipped', reason: 'no_jobs' });
  });

  it('uses rules:exists on the repository’s files', async () => {
    const jobs = byName(
      (await plan('docker:\n  script: build\n  rules:\n    - exists: [Dockerfile]\nrb:\n  script: x\n  rules:\n    - exists: ["**/*.rb"]\n')).jobs,
    );
    expect(Object.keys(jobs)).toEqual(['docker']);
  });

  it('defaults to only: [branches, tags], so plain jobs stay out of merge request pipelines', async () => {
    const yaml = 'a:\n  script: x\nmr:\n  script: x\n  only: [merge_requests]\n';
    expect((await plan(yaml)).jobs.map((j) => j.name)).toEqual(['a']);
    expect((await plan(yaml, { source: 'merge_request_event' })).jobs.map((j) => j.name)).toEqual(['mr']);
  });

  it('evaluates only/except refs, regexes and variables', async () => {
    const yaml = `
release:
  script: x
  only: ['/^release-.*$/']
tags:
  script: x
  only: [tags]
not-main:
  script: x
  except: [main]
vars:
  script: x
  only:
    variables: [$CI_COMMIT_BRANCH == "release-1"]
`;
    expect((await plan(yaml, { ref: 'release-1' })).jobs.map((j) => j.name)).toEqual(['release', 'not-main', 'vars']);
    expect((await plan(yaml, { ref: 'v1.0', tag: true })).jobs.map((j) => j.name)).toEqual(['tags', 'not-main']);
  });

  it('workflow:rules filter the pipeline out, or add variables and a name', async () => {
    const yaml = `
workflow:
  name: 'Pipeline for $CI_COMMIT_REF_NAME ($MODE)'
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule"
      when: never
    - if: $CI_COMMIT_BRANCH
      variables: { MODE: branch }
job:
  script: echo $MODE
`;
    const created = await plan(yaml);
    expect(created.name).toBe('Pipeline for main (branch)');
    expect(created.jobs[0]!.yamlVariables).toEqual([{ key: 'MODE', value: 'branch' }]);
    const skipped = await compilePipelineConfig(yaml, pushContext({ source: 'schedule' }), noFiles);
    expect(skipped).toEqual({ status: 'skipped', reason: 'filtered_by_workflow_rules', message: 'Pipeline filtered out by workflow rules.' });
  });

  it('honours [ci skip], [skip ci] and the ci.skip push option on pushes only', async () => {
    const yaml = 'job:\n  script: x\n';
    for (const extra of [{ commitMessage: 'WIP [ci skip]' }, { commitMessage: 'x [SKIP-CI]' }, { pushOptions: ['ci.skip'] }]) {
      expect(await compilePipelineConfig(yaml, pushContext(extra), noFiles)).toMatchObject({ status: 'skipped', reason: 'ci_skip' });
    }
    expect((await plan(yaml, { source: 'web', commitMessage: '[ci skip]' })).jobs).toHaveLength(1);
  });
});

describe('compilePipelineConfig: needs, matrix, triggers', () => {
  it('resolves needs to every instance of a parallel matrix job, or the selected ones', async () => {
    const jobs = byName(
      (
        await plan(`
build:
  stage: build
  script: make
  parallel:
    matrix:
      - ARCH: [amd64, arm64]
all:
  script: x
  needs: [build]
one:
  script: x
  needs:
    - job: build
      parallel:
        matrix:
          - ARCH: arm64
      artifacts: false
`)
      ).jobs,
    );
    expect(jobs.all!.needs!.map((n) => n.name)).toEqual(['build: [amd64]', 'build: [arm64]']);
    expect(jobs.one!.needs).toEqual([{ name: 'build: [arm64]', artifacts: false, optional: false }]);
    expect(jobs['build: [arm64]']!.yamlVariables).toEqual([{ key: 'ARCH', value: 'arm64' }]);
  });

  it('drops an absent optional need and refuses an absent required one with GitLab’s message', async () => {
    const yaml = (optional: boolean) => `
build:
  stage: build
  script: x
  rules: [{ if: $CI_COMMIT_TAG }]
test:
  script: x
  needs: [{ job: build, optional: ${optional} }]
`;
    expect(byName((await plan(yaml(true))).jobs).test!.needs).toEqual([]);
    expect(await errorsOf(yaml(false))).toEqual([
      "'test' job needs 'build' job, but 'build' does not exist in the pipeline. This might be because of the only, except, or rules keywords. To need a job that sometimes does not exist in the pipeline, use needs:optional.",
    ]);
  });

  it('plans trigger jobs as bridges (child pipeline and multi-project)', async () => {
    const jobs = byName(
      (await plan('child:\n  trigger:\n    include: ci/child.yml\n    strategy: depend\ndownstream:\n  trigger: acme/other\n')).jobs,
    );
    expect(jobs.child).toMatchObject({ kind: 'bridge', options: { trigger: { include: 'ci/child.yml', strategy: 'depend' } } });
    expect(jobs.downstream).toMatchObject({ kind: 'bridge', options: { trigger: { project: 'acme/other' } } });
  });

  it('starts a needs: [] job at once (an empty DAG) and keeps stage scheduling without needs', async () => {
    const jobs = byName((await plan('a:\n  stage: deploy\n  script: x\n  needs: []\nb:\n  script: x\n')).jobs);
    expect(jobs.a!.needs).toEqual([]);
    expect(jobs.b!.needs).toBeNull();
  });

  it('applies default: and global variables unless inherit: turns them off', async () => {
    const jobs = byName(
      (
        await plan(`
variables: { A: "1", B: "2" }
default:
  image: ruby
  before_script: [setup]
  interruptible: true
plain:
  script: x
picky:
  script: x
  inherit:
    default: [image]
    variables: [B]
none:
  script: x
  inherit: { default: false, variables: false }
`)
      ).jobs,
    );
    expect(jobs.plain).toMatchObject({ interruptible: true, options: { image: { name: 'ruby' }, beforeScript: ['setup'] } });
    expect(jobs.plain!.yamlVariables.map((v) => v.key)).toEqual(['A', 'B']);
    expect(jobs.picky!.options).toMatchObject({ image: { name: 'ruby' } });
    expect(jobs.picky!.options.beforeScript).toBeUndefined();
    expect(jobs.picky!.yamlVariables).toEqual([{ key: 'B', value: '2' }]);
    expect(jobs.none!.options.image).toBeUndefined();
    expect(jobs.none!.yamlVariables).toEqual([]);
  });

  it('does not run a pipeline with only .pre and .post jobs', async () => {
    const result = await compilePipelineConfig('a:\n  stage: .pre\n  script: x\n', pushContext(), noFiles);
    expect(result).toMatchObject({ status: 'skipped', reason: 'no_jobs' });
  });

  it('keeps allow_failure exit codes, retry conditions, timeout and environment details', async () => {
    const job = (
      await plan(`
job:
  script: x
  allow_failure: { exit_codes: [137, 255] }
  retry: { max: 2, when: [runner_system_failure, stuck_or_timeout_failure] }
  timeout: 1h 30m
  environment:
    name: review/$CI_COMMIT_REF_NAME
    action: prepare
    auto_stop_in: 1 day
    deployment_tier: development
`)
    ).jobs[0]!;
    expect(job).toMatchObject({ allowFailure: false, allowFailureExitCodes: [137, 255], environmentName: 'review/main' });
    expect(job.options).toMatchObject({
      retry: { max: 2, when: ['runner_system_failure', 'stuck_or_timeout_failure'] },
      timeoutSeconds: 5400,
      environment: { action: 'prepare', auto_stop_in: '1 day', deployment_tier: 'development' },
    });
  });

  it('expands the environment url with the job’s variables, CI_ENVIRONMENT_NAME and CI_ENVIRONMENT_SLUG', async () => {
    const job = (
      await plan(`
job:
  script: x
  variables: { DOMAIN: example.com }
  environment:
    name: review/$CI_COMMIT_REF_NAME
    url: https://$CI_ENVIRONMENT_SLUG.$DOMAIN/$CI_ENVIRONMENT_NAME?$UNKNOWN
`)
    ).jobs[0]!;
    const slug = environmentSlug('review/main');
    expect(job.options.environment).toMatchObject({ name: 'review/main', url: `https://${slug}.example.com/review/main?$UNKNOWN` });
  });
});

describe('compilePipelineConfig: keys that are JavaScript built-ins stay plain keys', () => {
  it('keeps __proto__ as a variable and a job name, and never pollutes Object.prototype', async () => {
    const result = await plan(`
variables:
  __proto__: { value: polluted }
.evil:
  __proto__: { polluted: true }
.base: &base
  script: x
__proto__:
  <<: *base
  extends: .base
constructor:
  script: x
  only: [toString]
`);
    expect(result.jobs.map((job) => job.name)).toEqual(['__proto__']);
    expect(result.jobs[0]!.yamlVariables).toEqual([{ key: '__proto__', value: 'polluted' }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.mergedConfig)).toBe(Object.prototype);
  });
});
