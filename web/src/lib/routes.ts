/**
 * The web app's URLs, shaped like GitLab's: `/<full/path>` for projects and groups,
 * with `/-/` separating a project's path from its sub-page, e.g.
 * `/group/sub/project/-/blob/feature/x/src/app.ts`. Builders encode each segment;
 * parsers decode them.
 */
export type ProjectPage =
  | { kind: 'overview' }
  | { kind: 'tree'; refAndPath: string }
  | { kind: 'blob'; refAndPath: string }
  | { kind: 'commits'; refAndPath: string }
  | { kind: 'commit'; sha: string }
  | { kind: 'branches' }
  | { kind: 'members' }
  | { kind: 'labels' }
  | { kind: 'milestones' }
  | { kind: 'merge-requests' }
  | { kind: 'new-merge-request' }
  | { kind: 'merge-request'; iid: number; tab: MergeRequestTab }
  | { kind: 'new-fork' }
  | { kind: 'edit'; refAndPath: string }
  | { kind: 'new-file'; refAndPath: string }
  | { kind: 'settings'; section: ProjectSettingsPage }
  | { kind: 'pipelines' }
  | { kind: 'new-pipeline' }
  | { kind: 'pipeline'; id: number; tab: PipelineTab }
  | { kind: 'jobs' }
  | { kind: 'job'; id: number }
  | { kind: 'environments' }
  | { kind: 'environment'; id: number }
  | { kind: 'merge-trains' }
  | { kind: 'job-artifacts'; id: number; path: string }
  | { kind: 'unknown' };

/** A pipeline page's tabs, GitLab's URLs: the graph at the bare URL, `/builds`, `/failures`, `/test_report` and `/manual_variables`. */
export type PipelineTab = 'graph' | 'builds' | 'failures' | 'test_report' | 'manual_variables';

const PIPELINE_TABS: Record<string, PipelineTab> = { builds: 'builds', failures: 'failures', test_report: 'test_report', manual_variables: 'manual_variables' };

const isId = (text: string | undefined): text is string => text !== undefined && /^\d{1,15}$/.test(text) && Number(text) > 0;

/** `pipelines/…` after the `/-/`: the list, the new form, or one pipeline and its tab. */
function parsePipelinePage(tail: string[]): ProjectPage {
  const [first, second, ...more] = tail;
  if (first === undefined) return { kind: 'pipelines' };
  if (first === 'new' && second === undefined) return { kind: 'new-pipeline' };
  if (!isId(first) || more.length > 0) return { kind: 'unknown' };
  if (second === undefined) return { kind: 'pipeline', id: Number(first), tab: 'graph' };
  const tab = PIPELINE_TABS[second];
  return tab ? { kind: 'pipeline', id: Number(first), tab } : { kind: 'unknown' };
}

/** `jobs/…` after the `/-/`: the list, one job, or its artifacts browser (`<id>/artifacts/browse/<dir>`, GitLab's URL). */
function parseJobPage(tail: string[]): ProjectPage {
  if (tail.length === 0) return { kind: 'jobs' };
  const [id, artifacts, browse, ...path] = tail;
  if (!isId(id)) return { kind: 'unknown' };
  if (artifacts === undefined) return { kind: 'job', id: Number(id) };
  if (artifacts === 'artifacts' && browse === 'browse') return { kind: 'job-artifacts', id: Number(id), path: path.filter((segment) => segment !== '').join('/') };
  return { kind: 'unknown' };
}

/** `environments/…` after the `/-/`: the list or one environment. */
function parseEnvironmentPage(tail: string[]): ProjectPage {
  if (tail.length === 0) return { kind: 'environments' };
  return tail.length === 1 && isId(tail[0]) ? { kind: 'environment', id: Number(tail[0]) } : { kind: 'unknown' };
}

/** The project's settings pages: `/<project>/edit` (General) and `/-/settings/<page>`, as GitLab. */
export type ProjectSettingsPage = 'general' | 'repository' | 'merge_requests' | 'ci_cd';

const SETTINGS_PAGES: Record<string, ProjectSettingsPage> = { repository: 'repository', merge_requests: 'merge_requests', ci_cd: 'ci_cd' };

export type MergeRequestTab = 'overview' | 'commits' | 'pipelines' | 'diffs' | 'edit';

const MERGE_REQUEST_TABS: Record<string, MergeRequestTab> = { commits: 'commits', pipelines: 'pipelines', diffs: 'diffs', edit: 'edit' };

/** `merge_requests/…` after the `/-/`: the list, the new form, or one merge request and its tab. */
function parseMergeRequestPage(tail: string[]): ProjectPage {
  const [first, second, ...more] = tail;
  if (first === undefined) return { kind: 'merge-requests' };
  if (first === 'new' && second === undefined) return { kind: 'new-merge-request' };
  if (!/^\d{1,9}$/.test(first) || Number(first) === 0 || more.length > 0) return { kind: 'unknown' };
  if (second === undefined) return { kind: 'merge-request', iid: Number(first), tab: 'overview' };
  const tab = MERGE_REQUEST_TABS[second];
  return tab ? { kind: 'merge-request', iid: Number(first), tab } : { kind: 'unknown' };
}

export interface DashSplit {
  /** The namespace or project full path before `/-/`, decoded. */
  fullPath: string;
  /** Decoded segments after `/-/`, or null when the URL has no `/-/`. */
  rest: string[] | null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function encodeSegments(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .map(encodeURIComponent)
    .join('/');
}

/** Splits an (encoded) pathname at its first `/-/` segment. */
export function splitAtDash(pathname: string): DashSplit {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  const dash = segments.indexOf('-');
  const before = dash === -1 ? segments : segments.slice(0, dash);
  return {
    fullPath: before.map(decodeSegment).join('/'),
    rest: dash === -1 ? null : segments.slice(dash + 1).map(decodeSegment),
  };
}

/**
 * `/<project>/edit` has no `/-/`: the full path ends in `edit`. Returns the project's path for
 * the General settings page, or null; the caller tries it only when no project has the whole path.
 */
export function settingsEditPath(split: DashSplit): string | null {
  if (split.rest !== null) return null;
  const segments = split.fullPath.split('/');
  return segments.length >= 3 && segments[segments.length - 1] === 'edit' ? segments.slice(0, -1).join('/') : null;
}

export function parseProjectPage(rest: string[] | null): ProjectPage {
  if (rest === null || rest.length === 0) return { kind: 'overview' };
  const [page, ...tail] = rest;
  const joined = tail.join('/');
  switch (page) {
    case 'tree':
      return joined ? { kind: 'tree', refAndPath: joined } : { kind: 'overview' };
    case 'blob':
      return joined ? { kind: 'blob', refAndPath: joined } : { kind: 'unknown' };
    case 'commits':
      return { kind: 'commits', refAndPath: joined };
    case 'commit':
      return tail[0] ? { kind: 'commit', sha: tail[0] } : { kind: 'unknown' };
    case 'branches':
      return { kind: 'branches' };
    case 'project_members':
      return { kind: 'members' };
    case 'labels':
      return tail.length === 0 ? { kind: 'labels' } : { kind: 'unknown' };
    case 'milestones':
      return tail.length === 0 ? { kind: 'milestones' } : { kind: 'unknown' };
    case 'merge_requests':
      return parseMergeRequestPage(tail);
    case 'pipelines':
      return parsePipelinePage(tail);
    case 'jobs':
      return parseJobPage(tail);
    case 'environments':
      return parseEnvironmentPage(tail);
    case 'merge_trains':
      return tail.length === 0 ? { kind: 'merge-trains' } : { kind: 'unknown' };
    case 'forks':
      return tail.length === 1 && tail[0] === 'new' ? { kind: 'new-fork' } : { kind: 'unknown' };
    case 'edit':
      return joined ? { kind: 'edit', refAndPath: joined } : { kind: 'unknown' };
    case 'new':
      return joined ? { kind: 'new-file', refAndPath: joined } : { kind: 'unknown' };
    case 'settings': {
      const section = tail.length === 1 ? SETTINGS_PAGES[tail[0]!] : undefined;
      return section ? { kind: 'settings', section } : { kind: 'unknown' };
    }
    default:
      return { kind: 'unknown' };
  }
}

export interface NewMergeRequestParams {
  source_branch?: string;
  target_branch?: string;
  source_project_id?: number;
  target_project_id?: number;
}

/** Reads `merge_request[…]` parameters of the new merge request URL. */
export function parseNewMergeRequestParams(search: URLSearchParams): NewMergeRequestParams {
  const id = (key: string) => {
    const value = Number(search.get(`merge_request[${key}]`));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  };
  return {
    source_branch: search.get('merge_request[source_branch]') || undefined,
    target_branch: search.get('merge_request[target_branch]') || undefined,
    source_project_id: id('source_project_id'),
    target_project_id: id('target_project_id'),
  };
}

function withSearch(path: string, search?: URLSearchParams): string {
  const text = search?.toString();
  return text ? `${path}?${text}` : path;
}

function join(...parts: string[]): string {
  return `/${parts.filter((part) => part !== '').join('/')}`;
}

export const urls = {
  project: (fullPath: string) => join(encodeSegments(fullPath)),
  tree: (fullPath: string, ref: string, dir = '') => join(encodeSegments(fullPath), '-', 'tree', encodeSegments(ref), encodeSegments(dir)),
  blob: (fullPath: string, ref: string, file: string) =>
    join(encodeSegments(fullPath), '-', 'blob', encodeSegments(ref), encodeSegments(file)),
  commits: (fullPath: string, ref: string, path = '') =>
    join(encodeSegments(fullPath), '-', 'commits', encodeSegments(ref), encodeSegments(path)),
  commit: (fullPath: string, sha: string) => join(encodeSegments(fullPath), '-', 'commit', encodeURIComponent(sha)),
  branches: (fullPath: string) => join(encodeSegments(fullPath), '-', 'branches'),
  labels: (fullPath: string) => join(encodeSegments(fullPath), '-', 'labels'),
  milestones: (fullPath: string) => join(encodeSegments(fullPath), '-', 'milestones'),
  projectMembers: (fullPath: string) => join(encodeSegments(fullPath), '-', 'project_members'),
  mergeRequests: (fullPath: string, search?: URLSearchParams) => withSearch(join(encodeSegments(fullPath), '-', 'merge_requests'), search),
  mergeRequest: (fullPath: string, iid: number, tab: MergeRequestTab = 'overview', search?: URLSearchParams) =>
    withSearch(join(encodeSegments(fullPath), '-', 'merge_requests', String(iid), tab === 'overview' ? '' : tab), search),
  /** GitLab's new merge request URL: `merge_request[source_branch]=…` and friends. */
  newMergeRequest: (fullPath: string, params: NewMergeRequestParams = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(`merge_request[${key}]`, String(value));
    return withSearch(join(encodeSegments(fullPath), '-', 'merge_requests', 'new'), search);
  },
  pipelines: (fullPath: string, search?: URLSearchParams) => withSearch(join(encodeSegments(fullPath), '-', 'pipelines'), search),
  newPipeline: (fullPath: string) => join(encodeSegments(fullPath), '-', 'pipelines', 'new'),
  pipeline: (fullPath: string, id: number, tab: PipelineTab = 'graph') =>
    join(encodeSegments(fullPath), '-', 'pipelines', String(id), tab === 'graph' ? '' : tab),
  jobs: (fullPath: string, search?: URLSearchParams) => withSearch(join(encodeSegments(fullPath), '-', 'jobs'), search),
  job: (fullPath: string, id: number) => join(encodeSegments(fullPath), '-', 'jobs', String(id)),
  environments: (fullPath: string, scope?: 'available' | 'stopped') =>
    withSearch(join(encodeSegments(fullPath), '-', 'environments'), scope ? new URLSearchParams({ scope }) : undefined),
  environment: (fullPath: string, id: number) => join(encodeSegments(fullPath), '-', 'environments', String(id)),
  /** GitLab's merge trains page: each target branch's queue and the merged history (`?scope=complete`). */
  mergeTrains: (fullPath: string, scope?: 'active' | 'complete') =>
    withSearch(join(encodeSegments(fullPath), '-', 'merge_trains'), scope ? new URLSearchParams({ scope }) : undefined),
  jobArtifacts: (fullPath: string, id: number, path = '') => join(encodeSegments(fullPath), '-', 'jobs', String(id), 'artifacts', 'browse', path ? encodeSegments(path) : ''),
  newFork: (fullPath: string) => join(encodeSegments(fullPath), '-', 'forks', 'new'),
  /** GitLab's new file form: in `dir` of `ref`, with `?file_name=` and `?commit_message=` filled in. */
  newFile: (fullPath: string, ref: string, dir = '', params: { file_name?: string; commit_message?: string } = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
    return withSearch(join(encodeSegments(fullPath), '-', 'new', encodeSegments(ref), encodeSegments(dir)), search);
  },
  /** GitLab's single-file editor. */
  edit: (fullPath: string, ref: string, file: string) => join(encodeSegments(fullPath), '-', 'edit', encodeSegments(ref), encodeSegments(file)),
  dashboardMergeRequests: (search?: URLSearchParams) => withSearch('/dashboard/merge_requests', search),
  /** GitLab's settings URLs: General is `/<project>/edit`, the others `/-/settings/<page>`. */
  projectSettings: (fullPath: string, page: ProjectSettingsPage = 'general') =>
    page === 'general' ? join(encodeSegments(fullPath), 'edit') : join(encodeSegments(fullPath), '-', 'settings', page),
  group: (fullPath: string) => join(encodeSegments(fullPath)),
  groupSettings: (fullPath: string) => join('groups', encodeSegments(fullPath), '-', 'edit'),
  /** GitLab's group CI/CD settings: `/groups/<group>/-/settings/ci_cd`. */
  groupCiCdSettings: (fullPath: string) => join('groups', encodeSegments(fullPath), '-', 'settings', 'ci_cd'),
  groupMembers: (fullPath: string) => join('groups', encodeSegments(fullPath), '-', 'group_members'),
  groupLabels: (fullPath: string) => join('groups', encodeSegments(fullPath), '-', 'labels'),
  groupMilestones: (fullPath: string) => join('groups', encodeSegments(fullPath), '-', 'milestones'),
  newProject: (namespaceId?: number) => (namespaceId ? `/projects/new?namespace_id=${namespaceId}` : '/projects/new'),
  newGroup: (parentId?: number) => (parentId ? `/groups/new?parent_id=${parentId}` : '/groups/new'),
  signIn: (redirect?: string) => (redirect && redirect !== '/' ? `/users/sign_in?redirect=${encodeURIComponent(redirect)}` : '/users/sign_in'),
};

/** Only same-site paths may be redirect targets after signing in (no `//host` or `https:`). */
export function safeRedirectPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/users/sign_in')) return '/';
  return value;
}

/** The parent directory of a repository path ('' for the root). */
export function parentDir(path: string): string {
  const index = path.lastIndexOf('/');
  return index === -1 ? '' : path.slice(0, index);
}
