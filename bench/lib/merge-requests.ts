/**
 * The merge-request benchmark's repository and REST helpers: a large merge
 * request made with `git fast-import`, pushes that change 100 files, polling
 * `…/versions` for a recorded diff version, and timed GETs of `…/diffs`.
 */
import { performance } from 'node:perf_hooks';
import { git } from './git-repo.js';
import { assertLocal, sleep } from './process.js';
import { api } from './tributary.js';

/** Lines per generated file. */
const FILE_LINES = 100;
/**
 * The lines a change rewrites: five blocks of ten, ten unchanged lines apart,
 * so every changed file has five hunks (git's 3 lines of context each side do
 * not join them). 50 lines per file.
 */
const CHANGED_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [5, 14],
  [25, 34],
  [45, 54],
  [65, 74],
  [85, 94],
];
export const CHANGED_LINES_PER_FILE = CHANGED_BLOCKS.reduce((sum, [from, to]) => sum + to - from + 1, 0);

const isChanged = (line: number) => CHANGED_BLOCKS.some(([from, to]) => line >= from && line <= to);

/** `src/pkg-07/file-0351.ts`: 50 files per directory. */
export function filePath(index: number): string {
  return `src/pkg-${String(Math.floor(index / 50)).padStart(2, '0')}/file-${String(index).padStart(4, '0')}.ts`;
}

/** A file's text; with `tag`, its CHANGED_BLOCKS lines rewritten (a different tag, different text). */
function fileContent(index: number, tag: string | null): string {
  const lines: string[] = [];
  for (let line = 1; line <= FILE_LINES; line++) {
    if (tag !== null && isChanged(line)) lines.push(`export const value${line} = compute(${index}, ${line}, '${tag}'); // ${tag}`);
    else lines.push(`export const value${line} = ${index * 1000 + line}; // file ${index}, line ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface MergeRequestRepoLayout {
  /** files in the base commit; every one is changed on `feature` */
  files: number;
  /** files each push commit changes */
  pushFiles: number;
  /** push commits on top of `feature` (the large merge request) */
  largePushes: number;
  /** push commits on top of `topic` (the 100-file merge request) */
  topicPushes: number;
}

/** Branch and ref names the generated repository holds. */
export const MR_REFS = {
  main: 'refs/heads/main',
  feature: 'refs/heads/feature',
  topic: 'refs/heads/topic',
  largePush: (n: number) => `refs/heads/feature-push-${n}`,
  topicPush: (n: number) => `refs/heads/topic-push-${n}`,
};

/**
 * A `git fast-import` stream of:
 * - `main`: one commit of `files` files of 100 lines;
 * - `feature`: one commit on main rewriting 50 lines of every file (the large merge request);
 * - `topic`: one commit on main rewriting 50 lines of `pushFiles` files spread over the tree;
 * - `feature-push-1…n` and `topic-push-1…n`: chains of commits on feature and topic, each
 *   rewriting the same 50 lines of `pushFiles` files again (what each timed push brings).
 * Dates are fixed, so the SHAs are the same on every run.
 */
export function mergeRequestStream(layout: MergeRequestRepoLayout): Buffer {
  const parts: string[] = [];
  let mark = 0;
  let time = 1_700_000_000;
  const pushSet = Array.from({ length: layout.pushFiles }, (_, i) => Math.floor((i * layout.files) / layout.pushFiles));
  const commit = (ref: string, message: string, from: number | null, files: readonly number[], tag: string | null): number => {
    mark++;
    time += 60;
    const date = `${time} +0000`;
    parts.push(`commit ${ref}\n`, `mark :${mark}\n`, `author Bench <bench@example.com> ${date}\n`, `committer Bench <bench@example.com> ${date}\n`);
    parts.push(`data ${Buffer.byteLength(message)}\n${message}\n`);
    if (from !== null) parts.push(`from :${from}\n`);
    for (const index of files) {
      const content = fileContent(index, tag);
      parts.push(`M 100644 inline ${filePath(index)}\n`, `data ${Buffer.byteLength(content)}\n${content}\n`);
    }
    parts.push('\n');
    return mark;
  };
  const all = Array.from({ length: layout.files }, (_, i) => i);
  const base = commit(MR_REFS.main, 'Base: every file\n', null, all, null);
  let feature = commit(MR_REFS.feature, `Rewrite ${CHANGED_LINES_PER_FILE} lines of every file\n`, base, all, 'feature');
  let topic = commit(MR_REFS.topic, `Rewrite ${CHANGED_LINES_PER_FILE} lines of ${layout.pushFiles} files\n`, base, pushSet, 'topic');
  for (let n = 1; n <= layout.largePushes; n++) feature = commit(MR_REFS.largePush(n), `Push ${n} to feature\n`, feature, pushSet, `feature-push-${n}`);
  for (let n = 1; n <= layout.topicPushes; n++) topic = commit(MR_REFS.topicPush(n), `Push ${n} to topic\n`, topic, pushSet, `topic-push-${n}`);
  parts.push('done\n');
  return Buffer.from(parts.join(''));
}

/** Creates the bare repository at `dir` and returns every ref's SHA. */
export async function generateMergeRequestRepository(dir: string, layout: MergeRequestRepoLayout, env: NodeJS.ProcessEnv): Promise<Map<string, string>> {
  await git(['init', '--quiet', '--bare', '--initial-branch=main', dir], { env });
  await git(['fast-import', '--quiet', '--done'], { env, cwd: dir, input: mergeRequestStream(layout) });
  const { stdout } = await git(['--git-dir', dir, 'for-each-ref', '--format=%(refname) %(objectname)'], { env });
  return new Map(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]),
  );
}

/* ------------------------------------------------------------------ REST */

export interface MergeRequestVersion {
  id: number;
  head_commit_sha: string;
  base_commit_sha: string | null;
  start_commit_sha: string;
  state: string;
  real_size: string;
}

export interface DiffFile {
  old_path: string;
  new_path: string;
  diff: string;
  collapsed: boolean;
  too_large: boolean;
}

export interface MergeRequestTarget {
  server: { url: string };
  token: string;
  projectId: number;
  iid: number;
}

export async function createMergeRequest(server: { url: string }, token: string, projectId: number, sourceBranch: string, targetBranch: string, title: string): Promise<MergeRequestTarget> {
  const created = await api<{ iid: number }>(server, token, 'POST', `/projects/${projectId}/merge_requests`, { source_branch: sourceBranch, target_branch: targetBranch, title });
  return { server, token, projectId, iid: created.iid };
}

/** The merge request's versions, newest first (at most 100: enough for the bench). */
export function listVersions(mr: MergeRequestTarget): Promise<MergeRequestVersion[]> {
  return api<MergeRequestVersion[]>(mr.server, mr.token, 'GET', `/projects/${mr.projectId}/merge_requests/${mr.iid}/versions?per_page=100`);
}

/**
 * Polls `…/versions` on a 10 ms grid from `since` (performance.now()) until the
 * newest version's head is `headSha`; returns the ms from `since` to the answer
 * that showed it, and that version.
 */
export async function waitForVersion(mr: MergeRequestTarget, headSha: string, since: number, timeoutMs = 60_000): Promise<{ ms: number; version: MergeRequestVersion; polls: number }> {
  const interval = 10;
  for (let attempt = 1; ; attempt++) {
    const versions = await listVersions(mr);
    const now = performance.now();
    if (versions[0]?.head_commit_sha === headSha) return { ms: now - since, version: versions[0], polls: attempt };
    if (now - since > timeoutMs) {
      throw new Error(`no version with head ${headSha.slice(0, 12)} appeared in …/merge_requests/${mr.iid}/versions within ${Math.round(now - since)} ms (newest: ${versions[0]?.head_commit_sha.slice(0, 12) ?? 'none'})`);
    }
    const next = since + attempt * interval;
    if (next > now) await sleep(next - now);
  }
}

/** One timed GET of a page of `…/diffs` (time to the last byte of the body). */
export async function timedDiffsPage(mr: MergeRequestTarget, perPage: number, page = 1): Promise<{ ms: number; files: DiffFile[]; total: number; bytes: number }> {
  const url = `${mr.server.url}/api/v4/projects/${mr.projectId}/merge_requests/${mr.iid}/diffs?page=${page}&per_page=${perPage}`;
  assertLocal(url);
  const start = performance.now();
  const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': mr.token }, signal: AbortSignal.timeout(60_000) });
  const text = await response.text();
  const ms = performance.now() - start;
  if (!response.ok) throw new Error(`GET …/diffs answered ${response.status}: ${text.slice(0, 500)}`);
  return { ms, files: JSON.parse(text) as DiffFile[], total: Number(response.headers.get('x-total') ?? NaN), bytes: Buffer.byteLength(text) };
}

/**
 * Whether a page of API diffs is the patch `git diff` wrote for the same files:
 * the same number of files, in the same order, each file's hunks found in git's
 * output. Returns a problem, or undefined.
 */
export function samePatch(files: readonly DiffFile[], gitPatch: string): string | undefined {
  const headers = [...gitPatch.matchAll(/^diff --git a\/(.*) b\/(.*)$/gm)].map((match) => match[2]);
  if (headers.length !== files.length) return `git diff printed ${headers.length} files, the API page ${files.length}`;
  for (const [i, file] of files.entries()) {
    if (headers[i] !== file.new_path) return `file ${i + 1}: git diff has ${headers[i]}, the API ${file.new_path}`;
    if (file.collapsed || file.too_large || !file.diff) return `${file.new_path} came back without its patch (collapsed: ${file.collapsed}, too_large: ${file.too_large})`;
    if (!gitPatch.includes(file.diff)) return `${file.new_path}: the API's patch text differs from git diff's`;
  }
  return undefined;
}
