import { describe, expect, it } from 'vitest';

import { compilePipelineConfig } from './compile.js';
import { memoryRepository, pushContext } from './test-context.js';

async function errorsOf(yaml: string) {
  const result = await compilePipelineConfig(yaml, pushContext(), memoryRepository({}));
  if (result.status !== 'error') throw new Error(`expected errors, got ${JSON.stringify(result)}`);
  return result.errors;
}

describe('compilePipelineConfig: GitLab’s yaml_errors', () => {
  it.each([
    ['', 'Please provide content of .gitlab-ci.yml'],
    ['- a\n- b\n', 'Invalid configuration format'],
    ['stages: [build]\n', 'jobs config should contain at least one visible job'],
    ['.hidden:\n  script: x\n', 'jobs config should contain at least one visible job'],
    ['job:\n  image: ruby\n', 'jobs:job config should implement the script:, run:, or trigger: keyword'],
    ['job: echo hi\n', 'jobs:job config should implement the script:, run:, or trigger: keyword'],
    ['job:\n  script: x\n  when: manual\n  manual_confirmation: [yes]\n', 'jobs:job manual confirmation should be a string'],
    ['job:\n  trigger:\n    include: c.yml\n    forward:\n      yaml_variables: sometimes\n', 'jobs:job:trigger:forward yaml variables should be a boolean value'],
    ['job:\n  trigger:\n    project: g/p\n    forward:\n      secrets: true\n', 'jobs:job:trigger:forward config contains unknown keys: secrets'],
    ['job:\n  script: x\n  scripts: y\n', 'jobs:job config contains unknown keys: scripts'],
    ['job:\n  script: x\n  when: later\n', 'jobs:job when should be one of: on_success, on_failure, always, manual, delayed'],
    ['job:\n  script: x\n  when: delayed\n', 'jobs:job start in should be a duration'],
    ['job:\n  script: x\n  when: delayed\n  start_in: 2 weeks\n', 'jobs:job start in should not exceed the limit'],
    ['job:\n  script: x\n  start_in: 1 hour\n', 'jobs:job start in should be blank'],
    [
      'job:\n  script: x\n  start_in: 1 hour\n  rules: [{ when: delayed, start_in: 1 hour }]\n',
      'jobs:job config key may not be used with `rules`: start_in',
    ],
    ['job:\n  script: x\n  only: [main]\n  rules: [{ when: always }]\n', 'jobs:job config key may not be used with `rules`: only'],
    ['job:\n  script: x\n  rules:\n    - if: $A = "b"\n', 'jobs:job:rules:rule if invalid expression syntax'],
    ['job:\n  script: x\n  rules:\n    - when: sometimes\n', 'jobs:job:rules:rule when unknown value: sometimes'],
    ['job:\n  script: x\n  rules:\n    - iff: $A\n', 'jobs:job:rules:rule config contains unknown keys: iff'],
    ['workflow:\n  rules:\n    - when: manual\njob:\n  script: x\n', 'workflow:rules:rule when unknown value: manual'],
    ['job:\n  script: x\n  allow_failure: maybe\n', 'jobs:job allow_failure should be a hash or a boolean value'],
    ['job:\n  script: x\n  retry: 3\n', 'jobs:job:retry config must be less than or equal to 2'],
    ['job:\n  script: x\n  retry: { max: 1, when: [sometimes] }\n', 'jobs:job:retry when contains unknown values: sometimes'],
    ['job:\n  script: x\n  timeout: forever\n', 'jobs:job timeout should be a duration'],
    ['job:\n  script: x\n  coverage: "/(unclosed/"\n', 'jobs:job:coverage config must be a regular expression with re2 syntax'],
    ['job:\n  script: x\n  artifacts:\n    when: sometimes\n', 'jobs:job:artifacts when should be on_success, on_failure or always'],
    ['job:\n  script: x\n  artifacts:\n    expose_as: report\n', "jobs:job:artifacts paths can't be blank"],
    ['job:\n  script: x\n  artifacts:\n    expose_as: report\n    paths: []\n', "jobs:job:artifacts paths can't be blank"],
    ['job:\n  script: x\n  artifacts:\n    expose_as: report\n    paths: [a.txt, "out/*.html"]\n', "jobs:job:artifacts paths can't contain '*' when used with 'expose_as'"],
    ['job:\n  script: x\n  artifacts:\n    expose_as: 1\n    paths: [a.txt]\n', 'jobs:job:artifacts expose as should be a string'],
    [`job:\n  script: x\n  artifacts:\n    expose_as: ${'A'.repeat(101)}\n    paths: [a.txt]\n`, 'jobs:job:artifacts expose as is too long (maximum is 100 characters)'],
    ['job:\n  script: x\n  artifacts:\n    expose_as: ""\n    paths: [a.txt]\n', "jobs:job:artifacts expose as can contain only letters, digits, '-', '_' and spaces"],
    ['job:\n  script: x\n  artifacts:\n    expose_as: \'<script>alert("xss")</script>\'\n    paths: [a.txt]\n', "jobs:job:artifacts expose as can contain only letters, digits, '-', '_' and spaces"],
    ['job:\n  script: x\n  artifacts:\n    expose_as: " report"\n    paths: [a.txt]\n', "jobs:job:artifacts expose as can contain only letters, digits, '-', '_' and spaces"],
    ['job:\n  script: x\n  artifacts:\n    reports: { junitt: a.xml }\n', 'jobs:job:artifacts:reports config contains unknown keys: junitt'],
    ['job:\n  script: x\n  environment: { name: prod, action: deploy }\n', 'jobs:job:environment action should be start, stop, prepare, verify, or access'],
    ['job:\n  script: x\n  tags: docker\n', 'jobs:job tags should be an array of strings'],
    ['job:\n  script: x\n  interruptible: sometimes\n', 'jobs:job interruptible config should be a boolean value'],
    ['default:\n  stage: test\njob:\n  script: x\n', 'default config contains unknown keys: stage'],
    ['stages: build\njob:\n  script: x\n', 'stages config should be an array of strings'],
    ['job:\n  script: x\n  only: main\n', 'jobs:job:only has to be either an array of conditions or a hash'],
    ['job:\n  script: x\n  only: ["/(/"]\n', 'jobs:job:only config should be an array of strings or regexps'],
    ['job:\n  script: x\n  except: { branches: [main] }\n', 'jobs:job:except config contains unknown keys: branches'],
    ['job:\n  script: x\n  only: { variables: [$A = 1] }\n', 'jobs:job:only variables Invalid expression syntax'],
    ['variables: [A]\njob:\n  script: x\n', 'variables config should be a hash of key value pairs, value can be a hash'],
    ['job:\n  script: x\n  variables: { A: [1] }\n', 'jobs:job variables config should be a hash of key value pairs, value can be a hash'],
    ['job:\n  trigger: { project: a/b }\n  script: x\n', 'jobs:job config contains unknown keys: script'],
  ])('%j → %s', async (yaml, message) => {
    expect(await errorsOf(yaml)).toContain(message);
  });

  it.each([
    ['job:\n  stage: lint\n  script: x\n', 'job job: chosen stage lint does not exist; available stages are .pre, build, test, deploy, .post'],
    ['test:\n  script: x\n  needs: [build]\n', 'test job: undefined need: build'],
    [
      'build:\n  stage: build\n  script: x\n  needs: [test]\ntest:\n  script: x\n',
      'build job: need test is not defined in current or prior stages',
    ],
    ['test:\n  script: x\n  dependencies: [build]\n', 'test job: undefined dependency: build'],
    [
      'build:\n  stage: build\n  script: x\nlint:\n  script: x\ntest:\n  script: x\n  needs: [build]\n  dependencies: [lint]\n',
      'jobs:test dependencies the lint should be part of needs',
    ],
    ['a:\n  script: x\n  needs: [b]\nb:\n  script: x\n  needs: [a]\n', 'The pipeline has circular dependencies'],
    ['deploy:\n  script: x\n  environment: { name: prod, on_stop: stop }\n', 'deploy job: on_stop job stop is not defined'],
    [
      'deploy:\n  script: x\n  environment: { name: prod, on_stop: stop }\nstop:\n  script: x\n  environment: { name: prod }\n',
      'deploy job: on_stop job stop needs to have action stop defined',
    ],
    ['job:\n  script: x\n  needs:\n    - { project: g/other, job: build, ref: main, artifacts: true, optional: true }\n', 'jobs:job:needs:need config contains unknown keys: optional'],
    ['job:\n  script: x\n  needs:\n    - { project: g/other, job: build }\n', "jobs:job:needs:need ref can't be blank"],
    ['job:\n  script: x\n  needs:\n    - { project: g/other, ref: main }\n', "jobs:job:needs:need job can't be blank"],
    ['job:\n  script: x\n  needs:\n    - { project: [g/other], job: build, ref: main }\n', 'jobs:job:needs:need project should be a string'],
    ['job:\n  script: x\n  needs:\n    - { project: g/other, job: build, ref: main, artifacts: yes please }\n', 'jobs:job:needs:need artifacts should be a boolean value'],
    [
      `job:\n  script: x\n  needs:\n${[1, 2, 3, 4, 5, 6].map((n) => `    - { project: g/p${n}, job: build, ref: main }\n`).join('')}`,
      'jobs:job:needs config must be less than or equal to 5',
    ],
    ['a:\n  extends: .missing\n  script: x\n', 'a: unknown keys in `extends` (.missing)'],
    ['.a:\n  extends: .b\n.b:\n  extends: .a\nc:\n  extends: .a\n  script: x\n', '.a: circular dependency detected in `extends`'],
    ['job:\n  script: !reference [.setup, script]\n', '!reference [".setup", "script"] could not be found'],
    [
      '.a:\n  script: !reference [.b, script]\n.b:\n  script: !reference [.a, script]\njob:\n  script: !reference [.a, script]\n',
      '!reference [".a", "script"] is part of a circular chain',
    ],
  ])('%j → %s (the first logical error)', async (yaml, message) => {
    expect(await errorsOf(yaml)).toEqual([message]);
  });

  it('accepts expose_as with paths of one file or directory each (GitLab’s valid examples)', async () => {
    for (const yaml of ['job:\n  script: x\n  artifacts:\n    expose_as: Test results-2_b\n    paths: [results.txt, coverage/]\n', `job:\n  script: x\n  artifacts:\n    expose_as: ${'A'.repeat(100)}\n    paths: [a.txt]\n`]) {
      expect((await compilePipelineConfig(yaml, pushContext(), memoryRepository({}))).status).not.toBe('error');
    }
  });

  it('refuses more than 50 needs for one job with GitLab’s message', async () => {
    const builds = Array.from({ length: 51 }, (_, i) => `b${i}:\n  stage: build\n  script: x\n`).join('');
    const names = Array.from({ length: 51 }, (_, i) => `b${i}`).join(', ');
    expect(await errorsOf(`${builds}test:\n  script: x\n  needs: [${names}]\n`)).toEqual([
      'test: one job can only need 50 others, but you have listed 51. See needs keyword documentation for more details',
    ]);
  });

  it('refuses an extends chain deeper than GitLab’s 10 levels', async () => {
    const chain = Array.from({ length: 12 }, (_, i) => `.l${i}:\n  extends: .l${i + 1}\n`).join('') + '.l12:\n  script: x\n';
    expect(await errorsOf(`${chain}job:\n  extends: .l0\n`)).toEqual(['.l11: nesting too deep in `extends`']);
  });

  it('refuses more jobs than the pipeline limit', async () => {
    const yaml = Array.from({ length: 11 }, (_, i) => `j${i}:\n  script: x\n  parallel: 200\n`).join('');
    expect(await errorsOf(yaml)).toEqual([
      'The number of jobs has exceeded the limit of 2000. Try splitting the configuration with parent-child-pipelines.',
    ]);
  });

  it('refuses a !reference bomb (each level ten references to the previous) as too big', async () => {
    const levels = ['.l0:\n  script: [x, x, x, x, x, x, x, x, x, x]\n'];
    for (let i = 1; i <= 9; i++) levels.push(`.l${i}:\n  script: [${Array(10).fill(`!reference [.l${i - 1}, script]`).join(', ')}]\n`);
    expect(await errorsOf(`${levels.join('')}job:\n  script: !reference [.l9, script]\n`)).toEqual(['The parsed YAML is too big']);
  });
});
