/**
 * Submodule diffs: the commits a gitlink moved between (from the "Subproject commit"
 * lines git prints) and, when `.gitmodules` names a web-reachable URL, a link comparing
 * them on that host (GitLab's submodule_compare). Pure.
 */
import type { ParsedDiff } from './diff-hunks';

const SUBPROJECT = /^Subproject commit ([0-9a-f]{7,64})(-dirty)?$/;

export function submoduleShas(parsed: ParsedDiff): { oldSha: string | null; newSha: string | null } {
  let oldSha: string | null = null;
  let newSha: string | null = null;
  for (const hunk of parsed.hunks) {
    for (const line of hunk.lines) {
      const match = line.type === 'note' ? null : SUBPROJECT.exec(line.text);
      if (!match) continue;
      if (line.type === 'delete') oldSha = match[1]!;
      else if (line.type === 'add') newSha = match[1]!;
      else oldSha = newSha = match[1]!;
    }
  }
  return { oldSha, newSha };
}

/** `path → url` from a `.gitmodules` file (git-config syntax, `[submodule "name"]` sections). */
export function parseGitmodules(text: string): Map<string, string> {
  const result = new Map<string, string>();
  let path: string | null = null;
  let url: string | null = null;
  const flush = () => {
    if (path && url) result.set(path, url);
    path = null;
    url = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      flush();
      continue;
    }
    const match = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const value = match[2]!.replace(/^"(.*)"$/, '$1').trim();
    if (match[1] === 'path') path = value;
    else if (match[1] === 'url') url = value;
  }
  flush();
  return result;
}

/**
 * A browser URL for a submodule remote: https URLs as they are, `git@host:group/repo.git`
 * as https; anything else (relative paths, file://, ssh:// with ports) has no web page we
 * can know.
 */
export function submoduleWebUrl(url: string): string | null {
  const scp = /^[\w.-]+@([\w.-]+):(?!\/)(.+?)(\.git)?\/?$/.exec(url);
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\.git\/?$/, '').replace(/\/$/, '');
  } catch {
    return null;
  }
}

/** GitLab's and GitHub's compare page between two commits of the submodule. */
export function submoduleCompareUrl(webUrl: string, oldSha: string | null, newSha: string | null): string | null {
  if (!newSha) return null;
  if (!oldSha) return `${webUrl}/tree/${newSha}`;
  return `${webUrl}/compare/${oldSha}...${newSha}`;
}
