/**
 * "Compare <version A> and <version B or base>" on a merge request's Changes tab. Versions
 * come from GET …/merge_requests/:iid/versions (newest first); the URL names the shown
 * version by `diff_id` and the one compared against by `start_sha`, as GitLab's do.
 * This module turns them into the SHAs of both sides and back. Pure.
 */
import { t } from '@tributary/contracts/i18n';

export interface DiffVersionEntity {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string | null;
  start_commit_sha: string;
  created_at: string;
  merge_request_id: number;
  state: string;
  real_size: string;
}

export interface NumberedVersion extends DiffVersionEntity {
  /** 1 for the oldest version. */
  number: number;
  latest: boolean;
}

export type Comparison =
  /** The newest version against the target branch: the paginated …/diffs call. */
  | { kind: 'latest'; head: NumberedVersion }
  /** An older version against the target branch: …/versions/:id. */
  | { kind: 'version'; head: NumberedVersion }
  /** One version against an older one: the repository compare of their heads. */
  | { kind: 'between'; head: NumberedVersion; start: NumberedVersion };

export interface ResolvedComparison {
  comparison: Comparison;
  /** Old side and new side of every file. */
  baseSha: string;
  headSha: string;
  /** The URL named a version that does not exist (or a start that is not older); the latest is shown instead. */
  fellBack: boolean;
}

/** Newest first, numbered from the oldest. */
export function numberVersions(versions: readonly DiffVersionEntity[]): NumberedVersion[] {
  const sorted = [...versions].sort((a, b) => b.id - a.id);
  return sorted.map((version, index) => ({ ...version, number: sorted.length - index, latest: index === 0 }));
}

export function versionLabel(version: Pick<NumberedVersion, 'latest' | 'number'>): string {
  return version.latest ? t('latest version') : t('version %{number}', { number: version.number });
}

export function baseLabel(targetBranch: string): string {
  return t('%{branch} (base)', { branch: targetBranch });
}

/** The old side of a version compared with the target branch: its merge base, else the target tip. */
function baseOf(version: DiffVersionEntity): string {
  return version.base_commit_sha ?? version.start_commit_sha;
}

export function resolveComparison(versions: readonly NumberedVersion[], params: { diffId: string | null; startSha: string | null }): ResolvedComparison | null {
  const latest = versions[0];
  if (!latest) return null;
  const wanted = params.diffId === null ? latest : versions.find((version) => String(version.id) === params.diffId);
  const head = wanted ?? latest;
  let fellBack = wanted === undefined;
  let start: NumberedVersion | undefined;
  if (params.startSha) {
    start = versions.find((version) => version.head_commit_sha === params.startSha && version.number < head.number);
    if (!start) fellBack = true;
  }
  if (start) return { comparison: { kind: 'between', head, start }, baseSha: start.head_commit_sha, headSha: head.head_commit_sha, fellBack };
  return { comparison: { kind: head.latest ? 'latest' : 'version', head }, baseSha: baseOf(head), headSha: head.head_commit_sha, fellBack };
}

/** The versions one may compare `head` with: the older ones (the base is always offered too). */
export function startCandidates(versions: readonly NumberedVersion[], head: NumberedVersion): NumberedVersion[] {
  return versions.filter((version) => version.number < head.number);
}

/** URL parameters for a choice; none for the default (latest against base). */
export function comparisonParams(head: NumberedVersion, start: NumberedVersion | null): Record<string, string> {
  if (start && start.number < head.number) return { diff_id: String(head.id), start_sha: start.head_commit_sha };
  return head.latest ? {} : { diff_id: String(head.id) };
}
