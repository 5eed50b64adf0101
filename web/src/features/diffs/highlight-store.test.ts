import { describe, expect, it } from 'vitest';
import { toDiffFile } from '../../lib/diff-file';
import { INITIAL_FILE_STATE } from './file-states';
import { createHighlightStore } from './highlight-store';

const file = toDiffFile({ old_path: 'a.txt', new_path: 'a.txt', a_mode: '100644', b_mode: '100644', diff: '@@ -1 +1 @@\n-<a>\n+b\n', new_file: false, renamed_file: false, deleted_file: false }, 0);

describe('createHighlightStore', () => {
  it('queues a file, highlights it when idle, and tells subscribers', () => {
    const pending: (() => void)[] = [];
    const store = createHighlightStore((callback) => pending.push(callback));
    let notified = 0;
    store.subscribe(() => notified++);
    expect(store.get(file, INITIAL_FILE_STATE)).toBeNull();
    expect(pending).toHaveLength(1);
    pending.shift()!();
    expect(notified).toBe(1);
    expect(store.get(file, INITIAL_FILE_STATE)?.old.get(1)).toBe('&lt;a&gt;');
  });

  it('re-highlights when the file’s texts change, showing the old result meanwhile', () => {
    const pending: (() => void)[] = [];
    const store = createHighlightStore((callback) => pending.push(callback));
    store.get(file, INITIAL_FILE_STATE);
    pending.shift()!();
    const loaded = { ...INITIAL_FILE_STATE, texts: { old: null, new: ['b', 'c'] } };
    expect(store.get(file, loaded)?.new.get(2)).toBeUndefined();
    pending.shift()!();
    expect(store.get(file, loaded)?.new.get(2)).toBe('c');
  });
});
