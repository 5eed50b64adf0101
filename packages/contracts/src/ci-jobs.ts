/**
 * Rules about CI jobs that the server and the web app both apply: GitLab's job groups (the jobs
 * `parallel: N` and `parallel: matrix` create, shown as one card in the pipeline graph), their
 * order, and GitLab's composite status (the status of a set of jobs: a group, a stage, a pipeline).
 */

export const CI_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;
export type CiStatus = (typeof CI_STATUSES)[number];

/**
 * GitLab's group name of a job (Gitlab::Utils::Job.group_name): the name without up to three
 * trailing ` N/M` (or `N:M`, `N M`, `N\M`) parallel counters and ` [..]` matrix values, each
 * after whitespace or a colon. `rspec 1/3` and `test: [ruby, 3]` group as `rspec` and `test`.
 * The character class is Ruby's `[\b\s:]` (backspace, ASCII whitespace, colon).
 */
const GROUP_SUFFIX = /([\b \t\r\n\f\v:]+((\[.*\])|(\d+[ \t\r\n\f\v:/\\]+\d+))){1,3}[ \t\r\n\f\v]*$/;
export function jobGroupName(name: string): string {
  return name.replace(GROUP_SUFFIX, '').trim();
}

/** GitLab's sortable name: the name split into text and numbers, so `rspec 2/10` sorts before `rspec 10/10`. */
function sortableName(name: string): (string | number)[] {
  return name.split(/(\d+)/).map((part, index) => (index % 2 === 1 ? Number(part) : part));
}

/** GitLab's order of jobs in a stage (by sortable name, element by element; a prefix first). */
export function compareSortableNames(a: string, b: string): number {
  const left = sortableName(a);
  const right = sortableName(b);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const x = left[i]!;
    const y = right[i]!;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return left.length - right.length;
}

export interface JobGroup<J> {
  name: string;
  jobs: J[];
}

/**
 * The groups of one stage's jobs (GitLab's Ci::Group.fabricate): the jobs sorted by sortable
 * name, then grouped by group name in the order the groups first appear.
 */
export function groupJobs<J extends { name: string }>(jobs: readonly J[]): JobGroup<J>[] {
  const groups = new Map<string, J[]>();
  for (const job of [...jobs].sort((a, b) => compareSortableNames(a.name, b.name))) {
    const name = jobGroupName(job.name);
    const list = groups.get(name) ?? [];
    list.push(job);
    groups.set(name, list);
  }
  return [...groups].map(([name, list]) => ({ name, jobs: list }));
}

export interface StatusOf {
  status: CiStatus;
  allowFailure: boolean;
}

export interface Composite {
  /** null for an empty set (callers decide: GitLab treats "nothing before" as success) */
  status: CiStatus | null;
  /** a job that was allowed to fail failed (GitLab's success-with-warnings) */
  warnings: boolean;
}

type Value = CiStatus | 'success_with_warnings' | 'ignored';

function valueOf(job: StatusOf): Value {
  if (job.allowFailure && (job.status === 'failed' || job.status === 'canceled')) return 'success_with_warnings';
  if (job.allowFailure && job.status === 'manual') return 'ignored';
  return job.status;
}

/**
 * GitLab's composite status (Gitlab::Ci::Status::Composite): the status of a set of jobs, used
 * for a job group, a stage, a pipeline, and (with `dag`) a job's `needs`. A failed or canceled
 * job that may fail counts as success with warnings; a manual job that may fail is ignored (it
 * blocks nothing). Then the first matching rule over the set of values wins.
 */
export function compositeStatus(jobs: readonly StatusOf[], options: { dag?: boolean } = {}): Composite {
  const set = new Set<Value>(jobs.map(valueOf));
  const warnings = set.has('success_with_warnings');
  if (set.size === 0) return { status: null, warnings: false };
  const onlyOf = (...values: Value[]) => [...set].every((value) => values.includes(value));
  const anyOf = (...values: Value[]) => values.some((value) => set.has(value));
  let status: CiStatus;
  if (options.dag && anyOf('skipped', 'ignored')) status = 'skipped';
  else if (onlyOf('skipped', 'ignored')) status = 'skipped';
  else if (onlyOf('success', 'skipped', 'success_with_warnings', 'ignored')) status = 'success';
  else if (onlyOf('created', 'success_with_warnings', 'ignored')) status = 'created';
  else if (onlyOf('preparing', 'success_with_warnings', 'ignored')) status = 'preparing';
  else if (onlyOf('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) status = 'canceled';
  else if (onlyOf('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) status = 'pending';
  else if (anyOf('running', 'pending')) status = 'running';
  else if (anyOf('waiting_for_resource')) status = 'waiting_for_resource';
  else if (anyOf('manual')) status = 'manual';
  else if (anyOf('scheduled')) status = 'scheduled';
  else if (anyOf('preparing')) status = 'preparing';
  else if (anyOf('created')) status = 'running';
  else if (anyOf('canceling')) status = 'canceling';
  else status = 'failed';
  return { status, warnings };
}
