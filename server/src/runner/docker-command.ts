/**
 * The `docker` command lines of the Docker executor: the job's script runs inside its `image`
 * with the job's directory mounted at the same path, its variables as `--env` (read from the
 * runner's environment by name, so values never appear on a command line), services as
 * containers on a per-job network reachable by their alias.
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

export function dockerServiceArgs(jobId: number, service: { name: string; alias?: string }, index: number): string[] {
  return ['run', '--detach', '--rm', '--name', containerName(jobId, `service-${index}`), '--network', networkName(jobId), '--network-alias', service.alias || serviceAlias(service.name), '--', service.name];
}
