/**
 * The git commands that fetch a job's sources, as argument arrays (no shell). The repository
 * URL, refspecs and sha come from the server; each stands after `--` or as a value that git
 * cannot read as an option, and the configuration is fixed with `-c`.
 */
export interface GitSource {
  repoUrl: string;
  sha: string;
  refspecs?: readonly string[];
  depth?: number;
}

const SAFE_CONFIG = ['-c', 'advice.detachedHead=false', '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.file.allow=always', '-c', 'credential.helper='];

export function gitFetchCommands(source: GitSource): string[][] {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(source.sha)) throw new Error('the job’s sha is not a commit id');
  if (source.repoUrl.startsWith('-')) throw new Error('the job’s repository URL is not a URL');
  const refspecs = (source.refspecs?.length ? source.refspecs : [`+${source.sha}`]).filter((spec) => !spec.startsWith('-'));
  const depth = source.depth && source.depth > 0 ? [`--depth=${Math.floor(source.depth)}`] : [];
  return [
    ['init', '--quiet', '.'],
    ['remote', 'add', '--', 'origin', source.repoUrl],
    ['fetch', '--quiet', '--prune', '--no-recurse-submodules', ...depth, '--end-of-options', 'origin', ...refspecs],
    ['checkout', '--quiet', '--force', '--detach', source.sha],
  ].map((args) => [...SAFE_CONFIG, ...args]);
}
