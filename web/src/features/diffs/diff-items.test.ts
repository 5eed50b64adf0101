import { describe, expect, it } from 'vitest';
import { toDiffFile } from '../../lib/diff-file';
import type { CommitDiff } from '../../lib/gitlab-types';
import { buildDiffItems, ROWS_PER_BLOCK } from './diff-items';
import { fileStatesReducer, INITIAL_FILE_STATE } from './file-states';

const entry = (overrides: Partial<CommitDiff>): CommitDiff => ({
  old_path: 'a.txt',
  new_path: 'a.txt',
  a_mode: '100644',
  b_mode: '100644',
  diff: '@@ -1,2 +1,2 @@\n x\n-a\n+b\n',
  new_file: false,
  renamed_file: false,
  deleted_file: false,
  ...overrides,
});

const text = toDiffFile(entry({}), 0);
const image = toDiffFile(entry({ old_path: 'logo.png', new_path: 'logo.png', diff: 'Binary files a/logo.png and b/logo.png differ\n' }), 1);
const collapsed = toDiffFile(entry({ collapsed: true, diff: '' }), 2);

describe('buildDiffItems', () => {
  it('lists header, rows and end per text file, one body for other viewers', () => {
    const { items, headerIndex } = buildDiffItems([text, image], {}, 'inline');
    expect(items.map((item) => item.kind)).toEqual(['header', 'lines', 'end', 'header', 'body', 'end']);
    // hunk header, context, deletion, addition, and the expander below (the file's length is unknown)
    expect(items[1]?.kind === 'lines' && items[1].rows.map((row) => row.type)).toEqual(['hunk', 'context', 'delete', 'add', 'expander']);
    expect(headerIndex.get(image.id)).toBe(3);
  });

  it('pairs rows side by side', () => {
    const { items } = buildDiffItems([text], {}, 'parallel');
    expect(items.map((item) => item.kind)).toEqual(['header', 'pairs', 'end']);
    // hunk header, context, the deletion beside the addition, the expander
    expect(items[1]?.kind === 'pairs' && items[1].rows.map((row) => row.kind)).toEqual(['full', 'pair', 'pair', 'full']);
  });

  it('explains a file that starts collapsed, and shows only the header of one the reader folded', () => {
    expect(buildDiffItems([collapsed], {}, 'inline').items.map((item) => item.kind)).toEqual(['header', 'body', 'end']);
    const folded = fileStatesReducer({}, { type: 'toggle-collapsed', id: text.id, startsCollapsed: false });
    expect(buildDiffItems([text], folded, 'inline').items.map((item) => item.kind)).toEqual(['header', 'end']);
  });

  it('splits long files into blocks of rows', () => {
    const long = toDiffFile(entry({ diff: `@@ -0,0 +1,${ROWS_PER_BLOCK * 2} @@\n${'+x\n'.repeat(ROWS_PER_BLOCK * 2)}`, new_file: true }), 3);
    const { items } = buildDiffItems([long], {}, 'inline');
    // the hunk header row makes it one more than two blocks
    expect(items.map((item) => (item.kind === 'lines' ? item.rows.length : item.kind))).toEqual(['header', ROWS_PER_BLOCK, ROWS_PER_BLOCK, 1, 'end']);
  });

  it('gives every item a unique key', () => {
    const { items } = buildDiffItems([text, image, collapsed], {}, 'parallel');
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
  });

  it('reuses a file’s items while its state is unchanged', () => {
    const store = new Map();
    const cache = { get: (file: object) => store.get(file), set: (file: object, value: unknown) => store.set(file, value) };
    const states = { [text.id]: INITIAL_FILE_STATE };
    const first = buildDiffItems([text], states, 'inline', cache).items;
    const second = buildDiffItems([text], states, 'inline', cache).items;
    expect(second[1]).toBe(first[1]);
    const changed = fileStatesReducer(states, { type: 'full-file', id: text.id, on: true });
    expect(buildDiffItems([text], changed, 'inline', cache).items[1]).not.toBe(first[1]);
  });
});
