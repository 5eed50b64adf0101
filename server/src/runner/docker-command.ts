/**
 * The `docker` command lines of the Docker executor: the job's script runs inside its `image`
 * with the job's directory mounted at the same path, its variables as `--env` (read from the
 * runner's environment by name, so values never appear on a command line), services as
 * containers on a per-job network reachable by their name and aliases, with their own
 * entrypoint and command (a service's `variables` are not passed yet).
 */
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
  const env = job.variableNames.flatMap((name) => ['--env', name]);
  const entrypoint = job.entrypoint && job.entrypoint.length > 0 ? ['--entrypoint', job.entrypoint[0]!] : ['--entrypoint', ''];
  return [
    'run', '--rm', '--name', containerName(job.jobId, 'build'), '--network', networkName(job.jobId),
    '--volume', `${job.workDir}:${job.workDir}`, '--volume', `${job.tmpDir}:${job.tmpDir}`,
    '--workdir', job.workDir, ...env, ...entrypoint, '--', job.image, ...(job.entrypoint?.slice(1) ?? []), 'sh', '-c',
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

/** A service container: its aliases, its `entrypoint` (first word; the rest go before the command) and its `command`. */
export function dockerServiceArgs(jobId: number, service: { name: string; alias?: string | null; entrypoint?: readonly string[] | null; command?: readonly string[] | null }, index: number): string[] {
  const aliases = serviceAliases(service).flatMap((alias) => ['--network-alias', alias]);
  const entrypoint = service.entrypoint && service.entrypoint.length > 0 ? ['--entrypoint', service.entrypoint[0]!] : [];
  return [
    'run', '--detach', '--rm', '--name', containerName(jobId, `service-${index}`), '--network', networkName(jobId), ...aliases, ...entrypoint,
    '--', service.name, ...(service.entrypoint?.slice(1) ?? []), ...(service.command ?? []),
  ];
}
