/**
 * The `docker` command lines of the Docker executor: the job's script runs inside its `image`
 * with the job's directory mounted at the same path, its variables as `--env` (read from the
 * runner's environment by name, so values never appear on a command line), services as
 * containers on a per-job network reachable by their name and aliases, with their own
 * entrypoint, command and variables (passed by name too). Every option takes its value in the
 * `--option=value` form and the image follows `--`, so no value from the job (an alias, an
 * entrypoint, a variable name) can be read by docker as an option of its own.
 */
import { expandVariables } from './expand.js';
import type { JobVariable } from './job.js';
export interface DockerJob {
  jobId: number;
  image: string;
  workDir: string;
  tmpDir: string;
  variableNames: readonly string[];
  scriptPath: string;
  entrypoint?: readonly string[];
  services?: readonly { name: string; alias?: string }[];
}

export function containerName(jobId: number, role: string): string {
  return `tributary-job-${jobId}-${role}`.replace(/[^a-zA-Z0-9_.-]/g, '-');
}

export function networkName(jobId: number): string {
  return `tributary-job-${jobId}`;
}

/** The alias GitLab gives a service without one: the image name without tag, `/` as `__` (and `-`). */
export function serviceAlias(image: string): string {
  return image.replace(/[:@].*$/, '').replace(/\//g, '__');
}

export function dockerRunArgs(job: DockerJob): string[] {
  const env = envArgs(job.variableNames);
  const entrypoint = `--entrypoint=${job.entrypoint && job.entrypoint.length > 0 ? job.entrypoint[0]! : ''}`;
  return [
    'run', '--rm', `--name=${containerName(job.jobId, 'build')}`, `--network=${networkName(job.jobId)}`,
    `--volume=${job.workDir}:${job.workDir}`, `--volume=${job.tmpDir}:${job.tmpDir}`,
    `--workdir=${job.workDir}`, ...env, entrypoint, '--', job.image, ...(job.entrypoint?.slice(1) ?? []), 'sh', '-c',
    // bash where the image has it (set -o pipefail needs it), sh otherwise
    'if command -v bash >/dev/null 2>&1; then exec bash "$0"; else exec sh "$0"; fi', job.scriptPath,
  ];
}

/**
 * The host names a service answers to on the job network, as gitlab-runner gives them: its
 * image name without tag with `/` as `__` and as `-`, then each of its `alias` (several are
 * separated by commas or spaces).
 */
export function serviceAliases(service: { name: string; alias?: string | null }): string[] {
  const base = serviceAlias(service.name);
  const explicit = (service.alias ?? '').split(/[\s,]+/).filter(Boolean);
  return [...new Set([base, base.replace(/__/g, '-'), ...explicit])];
}

/** A name docker can take from the caller's environment (`--env=NAME`): a shell variable name. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `--env=NAME` for each name: the value is read from the docker client's environment, never from its command line. */
function envArgs(names: readonly string[]): string[] {
  return names.filter((name) => VARIABLE_NAME.test(name)).map((name) => `--env=${name}`);
}

/**
 * A service's environment as gitlab-runner builds it (getServiceVariables): the job's public
 * variables, then the service's own `variables` (which win), expanded together; a name that is
 * not a shell variable name is left out, and so are file variables (their value is a path on
 * the runner).
 */
export function serviceEnvironment(jobVariables: readonly JobVariable[], serviceVariables: readonly { key: string; value: string }[] | null | undefined): Record<string, string> {
  const own = (serviceVariables ?? []).map((variable) => ({ key: String(variable.key), value: String(variable.value ?? ''), public: true }));
  const combined = [...jobVariables.filter((variable) => variable.public && !variable.file), ...own];
  const env: Record<string, string> = {};
  for (const variable of expandVariables(combined)) if (VARIABLE_NAME.test(variable.key)) env[variable.key] = variable.value;
  return env;
}

/**
 * Names the docker client reads itself (how to find and load it, where its daemon and
 * configuration are): a service variable of that name must not change the client's own
 * environment, so it travels in an env file instead.
 */
export function isClientVariable(name: string): boolean {
  return name === 'PATH' || name === 'HOME' || name.startsWith('DOCKER_') || name.startsWith('LD_');
}

/**
 * How a service's environment reaches docker: most names through the client's environment
 * (`clientEnv`, passed by name), the client's own names as `NAME=value` lines of a private env
 * file (`fileLines`; a value with a line break cannot be written there and is left out, in
 * `skipped`).
 */
export function splitServiceEnvironment(env: Record<string, string>): { clientEnv: Record<string, string>; fileLines: string[]; skipped: string[] } {
  const clientEnv: Record<string, string> = {};
  const fileLines: string[] = [];
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!isClientVariable(name)) clientEnv[name] = value;
    else if (/[\r\n]/.test(value)) skipped.push(name);
    else fileLines.push(`${name}=${value}`);
  }
  return { clientEnv, fileLines, skipped };
}

/**
 * A service container: its aliases, its variables (by name: the docker client is started with
 * them in its environment), its `entrypoint` (first word; the rest go before the command) and
 * its `command`.
 */
export function dockerServiceArgs(
  jobId: number,
  service: { name: string; alias?: string | null; entrypoint?: readonly string[] | null; command?: readonly string[] | null },
  index: number,
  variableNames: readonly string[] = [],
  envFile?: string,
): string[] {
  const aliases = serviceAliases(service).map((alias) => `--network-alias=${alias}`);
  const entrypoint = service.entrypoint && service.entrypoint.length > 0 ? [`--entrypoint=${service.entrypoint[0]!}`] : [];
  return [
    'run', '--detach', '--rm', `--name=${containerName(jobId, `service-${index}`)}`, `--network=${networkName(jobId)}`, ...aliases, ...envArgs(variableNames.filter((name) => !isClientVariable(name))), ...(envFile ? [`--env-file=${envFile}`] : []), ...entrypoint,
    '--', service.name, ...(service.entrypoint?.slice(1) ?? []), ...(service.command ?? []),
  ];
}
