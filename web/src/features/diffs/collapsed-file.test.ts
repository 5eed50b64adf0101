import { describe, expect, it } from 'vitest';
import { toDiffFile } from '../../lib/diff-file';
import type { CommitDiff } from '../../lib/gitlab-types';
import { loadCollapsedFile, type CollapsedFileSources } from './collapsed-file';
import type { DiffRefs } from './DiffContext';

const collapsed: CommitDiff = {
  old_path: 'big.txt',
  new_path: 'big.txt',
  a_mode: '100644',
  b_mode: '100644',
  diff: '',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  too_large: false,
  collapsed: true,
};
const text = (lines: string[]) => ({ size: 1, text: `${lines.join('\n')}\n`, lines });
const before = ['a', 'b', 'c', 'b', 'a'];
const after = ['a', 'c', 'b', 'a', 'b'];
/** The server's patch: a different (valid) alignment than a local diff would choose, so the test sees whose it shows. */
const gitPatch = '@@ -1,5 +1,5 @@\n a\n-b\n-c\n-b\n-a\n+c\n+b\n+a\n+b\n';

function sources(calls: string[]): CollapsedFileSources {
  return {
    side: async (sha, path) => {
      calls.push(`side ${sha} ${path}`);
      return sha === 'base' ? text(before) : text(after);
    },
    versionPatch: async (iid, versionId, path) => {
      calls.push(`patch ${iid} ${versionId} ${path}`);
      return gitPatch;
    },
    comparePatch: async (from, to, oldPath, newPath) => {
      calls.push(`compare ${from} ${to} ${oldPath} ${newPath}`);
      return gitPatch;
    },
  };
}

const refs = (overrides: Partial<DiffRefs> = {}): DiffRefs => ({ projectId: 1, fullPath: 'g/p', baseSha: 'base', headSha: 'head', editRef: null, ...overrides });

describe('loadCollapsedFile', () => {
  it("shows git's patch from the server for a merge request version, and loads both sides for expansion", async () => {
    const calls: string[] = [];
    const loaded = await loadCollapsedFile(toDiffFile(collapsed, 0), refs({ mergeRequestIid: 3, versionId: 7 }), sources(calls));
    expect(calls).toContain('patch 3 7 big.txt');
    expect(loaded.computed).toMatchObject({ added: 4, removed: 4 });
    expect(loaded.texts).toEqual({ old: before, new: after });
    expect(loaded.binary).toBe(false);
  });

  it("asks the compare for git's patch of the file where no version holds it (two versions compared, a branch compare)", async () => {
    const calls: string[] = [];
    const loaded = await loadCollapsedFile(toDiffFile(collapsed, 0), refs({ mergeRequestIid: 3, versionId: null }), sources(calls));
    expect(calls).toContain('compare base head big.txt big.txt');
    expect(calls.some((call) => call.startsWith('patch'))).toBe(false);
    // git's alignment, not one the page computed
    expect(loaded.computed).toMatchObject({ added: 4, removed: 4 });
    expect(loaded.texts).toEqual({ old: before, new: after });
  });

  it('asks for both paths of a renamed file, so git pairs them', async () => {
    const calls: string[] = [];
    await loadCollapsedFile(toDiffFile({ ...collapsed, old_path: 'old.txt', renamed_file: true }, 0), refs(), sources(calls));
    expect(calls).toContain('compare base head old.txt big.txt');
  });

  it('shows every line as added for a file with no old commit (a root commit)', async () => {
    const calls: string[] = [];
    const loaded = await loadCollapsedFile(toDiffFile({ ...collapsed, new_file: true }, 0), refs({ baseSha: null }), sources(calls));
    expect(calls.some((call) => call.startsWith('compare') || call.startsWith('patch'))).toBe(false);
    expect(loaded.computed).toMatchObject({ added: 5, removed: 0 });
  });
});
