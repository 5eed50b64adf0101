/**
 * `include:` as GitLab's Gitlab::Ci::Config::External: `local` (this repository at the pipeline's
 * commit, `*`/`**` wildcards), `project` + `file` (+ `ref`, default HEAD) on this instance, the
 * short string form, `include:rules`, and variables expanded in locations. Included files are
 * merged first (in order, deep merge) and the including file's own keys override them.
 *
 * Every file read goes through the caller's `readFile`, which answers from git objects of a
 * project the user may read: a location is a path inside a repository, never a server path
 * (`../`, absolute and NUL paths are refused here before any read). Remote URLs are not fetched
 * (no requests from the server to addresses a pipeline author chooses); templates and components
 * do not exist on this instance. Loops end at GitLab's include count limit.
 */
import { globToRegex } from './glob.js';
import { MAX_INCLUDES, MAX_TOTAL_YAML_SIZE_BYTES } from './limits.js';
import { deepMerge, expandVariables } from './merge.js';
import { ruleClausesHold, validateRules } from './rules.js';
import type { PipelineContext, PipelinePlan, ReadArtifactFile, ReadConfigFile } from './types.js';
import { isPlainObject, loadYaml } from './yaml-loader.js';

export class IncludeError extends Error {}

const YAML_EXTENSION = /.+\.(yml|yaml)$/i;
const INCLUDE_SUBKEYS = ['local', 'project', 'remote', 'template', 'component', 'artifact'];

interface FileScope {
  /** undefined: the pipeline's own project. */
  project?: string;
  ref?: string;
  /** Paths of the scope's repository, for local wildcards (only known for the pipeline's project). */
  existingPaths?: readonly string[];
}

interface IncludeState {
  readArtifact?: ReadArtifactFile;
  count: number;
  totalBytes: number;
  includes: PipelinePlan['includes'];
}

/** The configuration with every `include` resolved and merged, or throws IncludeError. */
export async function resolveIncludes(
  config: Record<string, unknown>,
  context: PipelineContext,
  readFile: ReadConfigFile,
  rootBytes = 0,
  readArtifact?: ReadArtifactFile,
): Promise<{ config: Record<string, unknown>; includes: PipelinePlan['includes'] }> {
  const state: IncludeState = { readArtifact, count: 0, totalBytes: rootBytes, includes: [] };
  const merged = await expand(config, { existingPaths: context.existingPaths }, context, readFile, state);
  return { config: merged, includes: state.includes };
}

async function expand(
  config: Record<string, unknown>,
  scope: FileScope,
  context: PipelineContext,
  readFile: ReadConfigFile,
  state: IncludeState,
): Promise<Record<string, unknown>> {
  if (config.include === undefined) return config;
  const { include, ...rest } = config;
  let merged: Record<string, unknown> = {};
  for (const entry of normalizeIncludes(include, context)) {
    if (entry.rules !== undefined) {
      const errors = validateRules(entry.rules, 'include:rules');
      if (errors.length > 0) throw new IncludeError(errors[0]);
      const rules = entry.rules as unknown[];
      const matched = rules.find((rule) => isPlainObject(rule) && ruleClausesHold(rule, context, context.variables));
      if (!matched || (isPlainObject(matched) && matched.when === 'never')) continue;
    }
    for (const file of await locateFiles(entry, scope, context, state.readArtifact !== undefined)) {
      if (state.count >= MAX_INCLUDES) throw new IncludeError(`Maximum of ${MAX_INCLUDES} nested includes are allowed!`);
      state.count++;
      const content = await fetchContent(file, readFile, state.readArtifact);
      state.totalBytes += Buffer.byteLength(content, 'utf8');
      if (state.totalBytes > MAX_TOTAL_YAML_SIZE_BYTES) {
        throw new IncludeError('Total size of combined CI/CD configuration is too big');
      }
      const loaded = loadYaml(content);
      if (!loaded.ok) {
        if (loaded.error.startsWith('(<unknown>)') || loaded.error === 'Invalid configuration format') {
          throw new IncludeError(`Included file \`${file.location}\` does not have valid YAML syntax!`);
        }
        throw new IncludeError(`\`${file.location}\`: ${loaded.error}`);
      }
      state.includes.push({
        type: file.kind === 'artifact' ? 'artifact' : file.project === undefined ? 'local' : 'file',
        location: file.location,
        extra: file.kind === 'artifact' ? { job_name: file.job } : file.project === undefined ? {} : { project: file.project, ref: file.ref ?? 'HEAD' },
        contextProject: context.projectPath,
      });
      const nestedScope: FileScope = file.project === undefined ? scope : { project: file.project, ref: file.ref };
      const nested = await expand(loaded.value, nestedScope, context, readFile, state);
      merged = deepMerge(merged, nested) as Record<string, unknown>;
    }
  }
  return deepMerge(merged, rest) as Record<string, unknown>;
}

type IncludeEntry = Record<string, unknown>;

function normalizeIncludes(include: unknown, context: PipelineContext): IncludeEntry[] {
  const list = Array.isArray(include) ? include : [include];
  return list.map((entry) => {
    if (typeof entry === 'string') {
      const location = expandVariables(entry, context.variables);
      return /^https?:\/\//i.test(location) ? { remote: location } : { local: location };
    }
    if (!isPlainObject(entry)) throw new IncludeError(`Included file \`${JSON.stringify(entry)}\` needs to be a string`);
    const subkeys = INCLUDE_SUBKEYS.filter((key) => entry[key] !== undefined);
    if (subkeys.length !== 1 && !(subkeys.length === 2 && subkeys.includes('project') && entry.file !== undefined)) {
      if (subkeys.length === 0) {
        throw new IncludeError(
          `\`${JSON.stringify(entry)}\` does not have a valid subkey for include. Valid subkeys are: \`local\`, \`project\`, \`remote\`, \`template\`, \`component\`, \`artifact\``,
        );
      }
      throw new IncludeError(`Each include must use only one of: ${INCLUDE_SUBKEYS.map((k) => `\`${k}\``).join(', ')}`);
    }
    return entry;
  });
}

interface FileToRead {
  project?: string;
  ref?: string;
  location: string;
  kind: 'local' | 'project' | 'artifact';
  /** for an artifact: the parent pipeline's job whose archive holds it */
  job?: string;
}

/** A repository path is relative, without `..` or NUL: the include cannot leave the repository. */
function safePath(path: string): string | null {
  const trimmed = path.replace(/^\/+/, '');
  if (trimmed === '' || trimmed.includes('\0') || trimmed.split('/').some((part) => part === '..' || part === '.')) {
    return null;
  }
  return trimmed;
}

async function locateFiles(entry: IncludeEntry, scope: FileScope, context: PipelineContext, creatingChild: boolean): Promise<FileToRead[]> {
  const vars = context.variables;
  if (entry.local !== undefined) {
    if (typeof entry.local !== 'string') throw new IncludeError(`Included file \`${JSON.stringify(entry.local)}\` needs to be a string`);
    const location = expandVariables(entry.local, vars);
    checkExtension(location);
    if (location.includes('*') && scope.project === undefined) {
      const regex = globToRegex(location.replace(/^\/+/, ''));
      const paths = regex ? (scope.existingPaths ?? []).filter((path) => regex.matches(path)) : [];
      return paths.sort().map((path) => ({ location: path, kind: 'local' as const }));
    }
    const path = safePath(location);
    if (path === null) throw new IncludeError(`Local file \`${location}\` does not exist!`);
    return [{ project: scope.project, ref: scope.ref, location: path, kind: scope.project === undefined ? 'local' : 'project' }];
  }
  if (entry.project !== undefined) {
    const project = expandVariables(String(entry.project), vars).toLowerCase();
    const ref = entry.ref === undefined ? 'HEAD' : expandVariables(String(entry.ref), vars);
    const files = Array.isArray(entry.file) ? entry.file : [entry.file];
    return files.map((file) => {
      if (typeof file !== 'string') throw new IncludeError(`Included file \`${JSON.stringify(file)}\` needs to be a string`);
      const location = expandVariables(file, vars);
      checkExtension(location);
      const path = safePath(location);
      if (path === null) throw new IncludeError(`Project \`${project}\` file \`${location}\` does not exist!`);
      return { project, ref, location: path, kind: 'project' as const };
    });
  }
  if (entry.remote !== undefined) {
    throw new IncludeError(`Remote file \`${String(entry.remote)}\` could not be fetched: remote includes are disabled on this instance!`);
  }
  if (entry.template !== undefined) throw new IncludeError(`Template file \`${String(entry.template)}\` is not a valid location!`);
  if (entry.component !== undefined) throw new IncludeError(`Component '${String(entry.component)}' - content not found`);
  // GitLab's External::File::Artifact: a file of the archive of a job of the parent pipeline.
  if (!creatingChild) throw new IncludeError('Including configs from artifacts is only allowed when triggering child pipelines');
  const location = expandVariables(String(entry.artifact), vars);
  if (typeof entry.job !== 'string' || entry.job === '') throw new IncludeError('Job must be provided when including configs from artifacts');
  checkExtension(location);
  return [{ location, kind: 'artifact', job: expandVariables(entry.job, vars) }];
}

function checkExtension(location: string) {
  if (!YAML_EXTENSION.test(location.split('/').pop() ?? '')) {
    throw new IncludeError(`Included file \`${location}\` does not have YAML extension!`);
  }
}

async function fetchContent(file: FileToRead, readFile: ReadConfigFile, readArtifact: ReadArtifactFile | undefined): Promise<string> {
  if (file.kind === 'artifact') {
    const job = file.job!;
    const answer = await readArtifact!({ job, path: file.location });
    if ('error' in answer) {
      if (answer.error === 'job_not_found') throw new IncludeError(`Job \`${job}\` not found in parent pipeline or does not have artifacts!`);
      if (answer.error === 'too_large') throw new IncludeError(`File \`${file.location}\` in \`${job}\` artifacts archive is too large!`);
      throw new IncludeError(`Path \`${file.location}\` does not exist inside the \`${job}\` artifacts archive!`);
    }
    if (answer.content.trim() === '') throw new IncludeError(`File \`${file.location}\` is empty!`);
    return answer.content;
  }
  const answer = await readFile({ project: file.project, ref: file.ref, path: file.location });
  if (file.kind === 'local') {
    if ('error' in answer) throw new IncludeError(`Local file \`${file.location}\` does not exist!`);
    if (answer.content.trim() === '') throw new IncludeError(`Local file \`${file.location}\` is empty!`);
    return answer.content;
  }
  const project = file.project ?? '';
  if ('error' in answer) {
    if (answer.error === 'project_not_found') {
      throw new IncludeError(
        `Project \`${project}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`,
      );
    }
    if (answer.error === 'ref_not_found') throw new IncludeError(`Project \`${project}\` reference \`${file.ref}\` does not exist!`);
    throw new IncludeError(`Project \`${project}\` file \`${file.location}\` does not exist!`);
  }
  if (answer.content.trim() === '') throw new IncludeError(`Project \`${project}\` file \`${file.location}\` is empty!`);
  return answer.content;
}
