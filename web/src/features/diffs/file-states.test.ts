import { describe, expect, it } from 'vitest';
import { parseDiffHunks } from '../../lib/diff-hunks';
import { gapsOf } from '../../lib/hunk-expansion';
import { fileStatesReducer, INITIAL_FILE_STATE, isCollapsed, type FileStates } from './file-states';

const gap = gapsOf(parseDiffHunks('@@ -30,3 +30,3 @@\n a\n-b\n+c\n d\n').hunks, null)[0]!;

describe('fileStatesReducer', () => {
  it('toggles collapse starting from the file’s own default', () => {
    const once = fileStatesReducer({}, { type: 'toggle-collapsed', id: 'f', startsCollapsed: true });
    expect(isCollapsed(once.f, true)).toBe(false);
    expect(isCollapsed(fileStatesReducer(once, { type: 'toggle-collapsed', id: 'f', startsCollapsed: true }).f, true)).toBe(true);
    expect(isCollapsed(undefined, false)).toBe(false);
  });

  it('collapses or opens a file outright (a file marked viewed)', () => {
    const collapsed = fileStatesReducer({}, { type: 'set-collapsed', id: 'f', collapsed: true });
    expect(isCollapsed(collapsed.f, false)).toBe(true);
    expect(isCollapsed(fileStatesReducer(collapsed, { type: 'set-collapsed', id: 'f', collapsed: false }).f, true)).toBe(false);
  });

  it('changes only the touched file’s state object', () => {
    const states: FileStates = { a: INITIAL_FILE_STATE, b: { ...INITIAL_FILE_STATE } };
    const next = fileStatesReducer(states, { type: 'expand-gap', id: 'a', gap, direction: 'up' });
    expect(next.b).toBe(states.b);
    expect(next.a!.expansions[0]).toEqual({ top: 0, bottom: 20 });
  });

  it('folds opened gaps with "show changes only"', () => {
    const opened = fileStatesReducer({}, { type: 'expand-gap', id: 'a', gap, direction: 'all' });
    const full = fileStatesReducer(opened, { type: 'full-file', id: 'a', on: true });
    expect(full.a!.fullFile).toBe(true);
    expect(fileStatesReducer(full, { type: 'full-file', id: 'a', on: false }).a!.expansions).toEqual({});
  });

  it('goes through the renamed viewer’s loading, errored and normal states', () => {
    let states = fileStatesReducer({}, { type: 'show-contents', id: 'r' });
    states = fileStatesReducer(states, { type: 'load-start', id: 'r' });
    expect(states.r).toMatchObject({ load: 'loading', showContents: true });
    const failed = fileStatesReducer(states, { type: 'load-error', id: 'r', error: 'Unable to load file contents. Try again later.' });
    expect(failed.r).toMatchObject({ load: 'error', showContents: false, error: 'Unable to load file contents. Try again later.' });
    expect(fileStatesReducer(failed, { type: 'dismiss-error', id: 'r' }).r).toMatchObject({ load: 'idle', error: null });
    const done = fileStatesReducer(states, { type: 'load-done', id: 'r', texts: { old: null, new: ['x'] } });
    expect(done.r).toMatchObject({ load: 'idle', showContents: true, texts: { new: ['x'] } });
  });

  it('opens a collapsed file once its diff was computed', () => {
    const collapsed = fileStatesReducer({}, { type: 'load-start', id: 'c' });
    const done = fileStatesReducer(collapsed, { type: 'load-done', id: 'c', texts: { old: ['a'], new: ['b'] }, computed: parseDiffHunks('@@ -1 +1 @@\n-a\n+b\n') });
    expect(isCollapsed(done.c, true)).toBe(false);
    expect(done.c!.computed?.hunks).toHaveLength(1);
  });
});

describe('image view mode', () => {
  it('is remembered per file, outside the row that shows it', () => {
    const states = fileStatesReducer({}, { type: 'image-mode', id: 'logo', mode: 'swipe' });
    expect(states.logo?.imageMode).toBe('swipe');
    expect(states.other).toBeUndefined();
  });
});
