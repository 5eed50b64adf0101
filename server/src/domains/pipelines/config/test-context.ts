/** Builders shared by the compiler's tests: a branch push context and an in-memory repository. */
import type { PipelineContext, ReadConfigFile } from './types.js';

export function pushContext(overrides: Partial<PipelineContext> = {}): PipelineContext {
  const ref = overrides.ref ?? 'main';
  const tag = overrides.tag ?? false;
  return {
    source: 'push',
    ref,
    tag,
    sha: 'a'.repeat(40),
    beforeSha: 'b'.repeat(40),
    existingPaths: ['README.md', 'Dockerfile', 'src/app.ts', 'ci/build.yml', 'ci/test.yml'],
    projectPath: 'acme/app',
    ...overrides,
    variables: {
      CI_PIPELINE_SOURCE: overrides.source ?? 'push',
      CI_COMMIT_REF_NAME: ref,
      CI_DEFAULT_BRANCH: 'main',
      CI_PROJECT_PATH: 'acme/app',
      ...(tag ? { CI_COMMIT_TAG: ref } : { CI_COMMIT_BRANCH: ref }),
      ...overrides.variables,
    },
  };
}

/** Files by project ('' = this project) and path; refs other than HEAD/main do not exist. */
export function memoryRepository(files: Record<string, Record<string, string>>): ReadConfigFile {
  return async ({ project, ref, path }) => {
    const repo = files[project ?? ''];
    if (!repo) return { error: 'project_not_found' };
    if (ref !== undefined && project !== undefined && !['HEAD', 'main'].includes(ref)) return { error: 'ref_not_found' };
    const content = repo[path];
    return content === undefined ? { error: 'file_not_found' } : { content };
  };
}
