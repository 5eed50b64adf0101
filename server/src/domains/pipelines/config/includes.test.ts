import { describe, expect, it } from 'vitest';

import { compilePipelineConfig } from './compile.js';
import { memoryRepository, pushContext } from './test-context.js';
import type { ReadConfigFile } from './types.js';

const repository = memoryRepository({
  '': {
    'ci/build.yml': 'variables: { FROM: build }\nbuild:\n  stage: build\n  script: make\n',
    'ci/test.yml': 'include: ci/nested.yml\ntest:\n  script: make test\n',
    'ci/nested.yml': '.base:\n  tags: [nested]\n',
    'ci/empty.yml': '  \n',
    'ci/broken.yml': 'a: [\n',
    'ci/loop-a.yml': 'include: ci/loop-b.yml\n',
    'ci/loop-b.yml': 'include: ci/loop-a.yml\n',
  },
  'acme/templates': {
    'jobs/lint.yml': 'include: { local: jobs/common.yml }\nlint:\n  extends: .common\n  script: lint\n',
    'jobs/common.yml': '.common:\n  image: alpine\n',
  },
});

async function compile(yaml: string, readFile: ReadConfigFile = repository) {
  return compilePipelineConfig(yaml, pushContext(), readFile);
}

describe('include: local and project', () => {
  it('merges included files first, then the including file’s keys override', async () => {
    const result = await compile(`
include:
  - local: /ci/build.yml
  - ci/test.yml
  - project: acme/templates
    file: jobs/lint.yml
variables: { FROM: main }
test:
  extends: .base
`);
    expect(result.status).toBe('created');
    if (result.status !== 'created') return;
    const names = result.plan.jobs.map((job) => job.name);
    expect(names).toEqual(['build', 'test', 'lint']);
    expect(result.plan.jobs.find((job) => job.name === 'test')!.tags).toEqual(['nested']);
    expect(result.plan.jobs.find((job) => job.name === 'lint')!.options.image).toEqual({ name: 'alpine' });
    expect(result.plan.jobs[0]!.yamlVariables).toEqual([{ key: 'FROM', value: 'main' }]);
    expect(result.plan.includes.map((include) => include.location)).toEqual([
      'ci/build.yml',
      'ci/test.yml',
      'ci/nested.yml',
      'jobs/lint.yml',
      'jobs/common.yml',
    ]);
  });

  it('expands local wildcards over the repository’s files', async () => {
    const result = await compile("include: 'ci/*.yml'\nx:\n  script: x\n");
    expect(result.status === 'created' && result.plan.jobs.map((j) => j.name)).toEqual(['build', 'test', 'x']);
  });

  it('skips an include whose rules do not match', async () => {
    const result = await compile('include:\n  - local: ci/build.yml\n    rules:\n      - if: $CI_COMMIT_TAG\nx:\n  script: x\n');
    expect(result.status === 'created' && result.plan.jobs.map((j) => j.name)).toEqual(['x']);
  });

  it.each([
    ['include: ci/missing.yml\n', 'Local file `ci/missing.yml` does not exist!'],
    ['include: ci/empty.yml\n', 'Local file `ci/empty.yml` is empty!'],
    ['include: ci/broken.yml\n', 'Included file `ci/broken.yml` does not have valid YAML syntax!'],
    ['include: ci/notes.txt\n', 'Included file `ci/notes.txt` does not have YAML extension!'],
    [
      'include: { project: acme/nothing, file: a.yml }\n',
      'Project `acme/nothing` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
    ],
    ['include: { project: acme/templates, file: a.yml, ref: v9 }\n', 'Project `acme/templates` reference `v9` does not exist!'],
    ['include: { project: acme/templates, file: nope.yml }\n', 'Project `acme/templates` file `nope.yml` does not exist!'],
    ['include: { template: Auto-DevOps.gitlab-ci.yml }\n', 'Template file `Auto-DevOps.gitlab-ci.yml` is not a valid location!'],
    [
      'include: { remote: "https://169.254.169.254/latest.yml" }\n',
      'Remote file `https://169.254.169.254/latest.yml` could not be fetched: remote includes are disabled on this instance!',
    ],
  ])('%j → %s', async (yaml, message) => {
    expect(await compile(`${yaml}x:\n  script: x\n`)).toEqual({ status: 'error', errors: [message], warnings: [] });
  });
});

describe('include: untrusted configuration cannot escape or exhaust the server', () => {
  it('never asks for a path outside the repository', async () => {
    const asked: string[] = [];
    const spy: ReadConfigFile = async (request) => {
      asked.push(request.path);
      return { error: 'file_not_found' };
    };
    for (const path of ['../../etc/passwd.yml', '/../secrets.yml', 'ci/../../x.yml']) {
      const result = await compile(`include: '${path}'\nx:\n  script: x\n`, spy);
      expect(result.status).toBe('error');
    }
    expect(asked).toEqual([]);
  });

  it('ends an include loop at GitLab’s limit of 150 includes', async () => {
    expect(await compile('include: ci/loop-a.yml\nx:\n  script: x\n')).toEqual({
      status: 'error',
      errors: ['Maximum of 150 nested includes are allowed!'],
      warnings: [],
    });
  });

  it('bounds the nesting depth by the same limit: a chain of 150 distinct files compiles, 151 is refused', async () => {
    const chain = (length: number) =>
      memoryRepository({ '': Object.fromEntries(Array.from({ length }, (_, i) => [`ci/chain-${i}.yml`, i + 1 < length ? `include: ci/chain-${i + 1}.yml\n` : 'deepest:\n  script: x\n'])) });
    expect((await compile('include: ci/chain-0.yml\n', chain(150))).status).toBe('created');
    expect(await compile('include: ci/chain-0.yml\n', chain(151))).toEqual({ status: 'error', errors: ['Maximum of 150 nested includes are allowed!'], warnings: [] });
  });

  it('never fetches a remote URL', async () => {
    const asked: string[] = [];
    const spy: ReadConfigFile = async (request) => {
      asked.push(request.path);
      return { content: 'x:\n  script: x\n' };
    };
    await compile("include: 'http://localhost:6379/x.yml'\n", spy);
    expect(asked).toEqual([]);
  });
});

describe('include: artifact (a child pipeline from a job’s artifact, GitLab’s External::File::Artifact)', () => {
  const artifacts: Record<string, Record<string, string>> = { generate: { 'generated.yml': 'dynamic:\n  script: echo dynamic\n', 'empty.yml': ' ' } };
  const readArtifact = async ({ job, path }: { job: string; path: string }) => {
    const files = artifacts[job];
    if (!files) return { error: 'job_not_found' as const };
    return path in files ? { content: files[path]! } : { error: 'file_not_found' as const };
  };
  const child = (include: string) => compilePipelineConfig(include, pushContext({ source: 'parent_pipeline' }), repository, readArtifact);

  it('reads the file from the named job’s archive', async () => {
    const result = await child('include:\n  - artifact: generated.yml\n    job: generate\n');
    expect(result.status).toBe('created');
    if (result.status !== 'created') return;
    expect(result.plan.jobs.map((job) => job.name)).toEqual(['dynamic']);
    expect(result.plan.includes[0]).toMatchObject({ type: 'artifact', location: 'generated.yml', extra: { job_name: 'generate' } });
  });

  it.each([
    ['include:\n  - artifact: generated.yml\n    job: missing\n', 'Job `missing` not found in parent pipeline or does not have artifacts!'],
    ['include:\n  - artifact: other.yml\n    job: generate\n', 'Path `other.yml` does not exist inside the `generate` artifacts archive!'],
    ['include:\n  - artifact: empty.yml\n    job: generate\n', 'File `empty.yml` is empty!'],
    ['include:\n  - artifact: generated.yml\n', 'Job must be provided when including configs from artifacts'],
  ])('answers GitLab’s error for %j', async (yaml, message) => {
    expect(await child(yaml)).toMatchObject({ status: 'error', errors: [message] });
  });

  it('is refused outside a child pipeline', async () => {
    expect(await compile('include:\n  - artifact: generated.yml\n    job: generate\nx:\n  script: y\n')).toMatchObject({
      status: 'error',
      errors: ['Including configs from artifacts is only allowed when triggering child pipelines'],
    });
  });
});
