import { describe, expect, it } from 'vitest';
import { toDiffFile } from '../../lib/diff-file';
import { escapeHtml } from '../../lib/highlight-lines';
import { HIGHLIGHT_STEP_LINES, type Highlighter } from './diff-highlight';
import { INITIAL_FILE_STATE } from './file-states';
import { createHighlightStore, type Idle } from './highlight-store';

const file = (index: number, diff = '@@ -1 +1 @@\n-<a>\n+b\n') =>
  toDiffFile({ old_path: 'a.txt', new_path: 'a.txt', a_mode: '100644', b_mode: '100644', diff, new_file: false, renamed_file: false, deleted_file: false }, index);

/** A stand-in for highlight.js that counts its calls: escapes each line, as the real one does for unknown languages. */
function countingHighlighter() {
  const calls: number[] = [];
  const highlight: Highlighter = (text) => {
    const lines = text.split('\n').slice(0, -1);
    calls.push(lines.length);
    return lines.map(escapeHtml);
  };
  return { highlight, calls };
}

/** Idle callbacks run by hand, each with the time it is given. */
function manualIdle() {
  const pending: ((timeRemaining: () => number) => void)[] = [];
  const idle: Idle = (callback) => pending.push(callback);
  return { idle, pending, run: (ms = 0) => pending.shift()!(() => ms) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createHighlightStore', () => {
  it('highlights a file whose rows are shown, when the page is idle, and tells subscribers', async () => {
    const { idle, pending, run } = manualIdle();
    const { highlight } = countingHighlighter();
    const store = createHighlightStore(idle, async () => highlight);
    const shown = file(0);
    let notified = 0;
    store.subscribe(() => notified++);
    store.request(shown, INITIAL_FILE_STATE);
    expect(store.peek(shown)).toBeNull();
    await flush(); // the highlighter module loads
    expect(pending).toHaveLength(1);
    run(50);
    expect(notified).toBe(1);
    expect(store.peek(shown)?.old.get(1)).toBe('&lt;a&gt;');
  });

  it('re-highlights when the file’s texts change, keeping the old result meanwhile', async () => {
    const { idle, run } = manualIdle();
    const store = createHighlightStore(idle, async () => countingHighlighter().highlight);
    const shown = file(0);
    store.request(shown, INITIAL_FILE_STATE);
    await flush();
    run(50);
    const loaded = { ...INITIAL_FILE_STATE, texts: { old: null, new: ['b', 'c'] } };
    store.request(shown, loaded);
    expect(store.peek(shown)?.new.get(2)).toBeUndefined();
    run(50);
    expect(store.peek(shown)?.new.get(2)).toBe('c');
  });

  it('highlights a long file a step of lines per task', async () => {
    const { idle, pending, run } = manualIdle();
    const { highlight, calls } = countingHighlighter();
    const store = createHighlightStore(idle, async () => highlight);
    const lines = HIGHLIGHT_STEP_LINES * 2 + 10;
    const long = file(0, `@@ -0,0 +1,${lines} @@\n${'+x\n'.repeat(lines)}`);
    store.request(long, INITIAL_FILE_STATE);
    await flush();
    // A callback with no idle time left does one step and asks for another.
    run(0);
    expect(calls).toEqual([HIGHLIGHT_STEP_LINES]);
    expect(store.peek(long)).toBeNull();
    run(0);
    run(0);
    expect(calls).toEqual([HIGHLIGHT_STEP_LINES, HIGHLIGHT_STEP_LINES, 10]);
    expect(store.peek(long)?.new.size).toBe(lines);
    expect(pending).toHaveLength(0);
  });

  it('keeps going while the idle period lasts', async () => {
    const { idle, run } = manualIdle();
    const { highlight, calls } = countingHighlighter();
    const store = createHighlightStore(idle, async () => highlight);
    const files = [file(0), file(1), file(2)];
    for (const shown of files) store.request(shown, INITIAL_FILE_STATE);
    await flush();
    run(50);
    expect(files.every((shown) => store.peek(shown) !== null)).toBe(true);
    // one old and one new line per file
    expect(calls).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('drops a file whose rows left the screen before its turn', async () => {
    const { idle, pending, run } = manualIdle();
    const { highlight, calls } = countingHighlighter();
    const store = createHighlightStore(idle, async () => highlight);
    const gone = file(0);
    const release = store.request(gone, INITIAL_FILE_STATE);
    await flush();
    release();
    run(50);
    expect(calls).toEqual([]);
    expect(store.peek(gone)).toBeNull();
    expect(pending).toHaveLength(0);
  });
});
