/**
 * The refs a merge request keeps in its TARGET repository, as GitLab does:
 *
 *   refs/merge-requests/:iid/head   the source tip, copied in from a fork when needed
 *   refs/keep-around/<sha>          every version's head and start, so a force push or a
 *                                   rewritten target never lets git gc old versions away
 *
 * Every change is a compare-and-swap; a lost race with another refresh is re-read, never
 * overwritten blindly.
 */
import { readRef, readRefs, RefConflictError, updateRef, updateRefs } from '../../git/index.js';

export const mergeRequestHeadRef = (iid: number) => `refs/merge-requests/${iid}/head`;
export const keepAroundRef = (sha: string) => `refs/keep-around/${sha}`;

/** Points refs/merge-requests/:iid/head at `sha` (created when missing). */
export async function pointHeadRef(repoPath: string, iid: number, sha: string): Promise<void> {
  const ref = mergeRequestHeadRef(iid);
  for (let attempt = 0; ; attempt++) {
    const current = await readRef(repoPath, ref);
    if (current?.target === sha) return;
    try {
      await updateRef(repoPath, ref, sha, current?.target ?? null);
      return;
    } catch (error) {
      // Another refresh moved it meanwhile: look again (twice at most, then let the job retry).
      if (!(error instanceof RefConflictError) || attempt >= 2) throw error;
    }
  }
}

/** Creates refs/keep-around/<sha> for each commit that lacks one. */
export async function keepAround(repoPath: string, shas: readonly string[], retry = true): Promise<void> {
  const wanted = [...new Set(shas)];
  const existing = new Set((await readRefs(repoPath, wanted.map(keepAroundRef))).map((ref) => ref.ref));
  const missing = wanted.filter((sha) => !existing.has(keepAroundRef(sha)));
  if (missing.length === 0) return;
  try {
    await updateRefs(repoPath, missing.map((sha) => ({ ref: keepAroundRef(sha), newSha: sha, oldSha: null })));
  } catch (error) {
    // Created by a concurrent refresh: the commits are kept either way.
    if (!(error instanceof RefConflictError) || !retry) throw error;
    await keepAround(repoPath, missing, false);
  }
}

/**
 * All refs of a new version in one `update-ref --stdin` transaction: the head ref moved from
 * the value the last version left it at, and keep-around refs created for head (and for
 * start unless the last version kept it already). One git call on the common path; should
 * any expectation be wrong (a ref moved, a head that was kept before after a force push
 * back), the refs are read and updated one by one.
 */
export async function updateVersionRefs(
  repoPath: string,
  input: { iid: number; head: string; start: string; previous: { head: string; start: string } | null },
): Promise<void> {
  const updates = [{ ref: mergeRequestHeadRef(input.iid), newSha: input.head, oldSha: input.previous?.head ?? null }];
  for (const sha of new Set([input.head, input.start])) {
    if (sha !== input.previous?.start && sha !== input.previous?.head) updates.push({ ref: keepAroundRef(sha), newSha: sha, oldSha: null });
  }
  try {
    await updateRefs(repoPath, updates);
  } catch (error) {
    if (!(error instanceof RefConflictError)) throw error;
    await keepAround(repoPath, [input.head, input.start]);
    await pointHeadRef(repoPath, input.iid, input.head);
  }
}
