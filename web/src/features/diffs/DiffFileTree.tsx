import { ChevronDownIcon, ChevronRightIcon, EyeIcon, FileDirectoryFillIcon, FileDirectoryOpenFillIcon, SearchIcon } from '@primer/octicons-react';
import { TextInput } from '@primer/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { displayPath, type DiffFile } from '../../lib/diff-file';
import { buildDiffTree, filterTreeFiles, flattenTree, treeRowKey, type FlatTreeRow } from '../../lib/diff-file-tree';
import { FileStatusIcon } from './DiffFileHeader';
import { treeRowLabel } from './tree-label';
import styles from './DiffFileTree.module.css';

interface TreeFile {
  id: string;
  path: string;
  added: number;
  removed: number;
  file: DiffFile;
}

/** Height of one tree row in pixels (DiffFileTree.module.css .row). */
const TREE_ROW_HEIGHT = 28;
/** Indentation per level in pixels. */
const INDENT = 16;

const TreeRow = memo(function TreeRow({ row, current, viewed, focused, expanded, onActivate, onFocusRow, domId, top }: {
  row: FlatTreeRow<TreeFile>;
  current: boolean;
  /** the file is marked 'Viewed' (a merge request's Changes tab) */
  viewed: boolean;
  focused: boolean;
  expanded: boolean;
  onActivate: (row: FlatTreeRow<TreeFile>) => void;
  onFocusRow: (key: string) => void;
  domId: string;
  top: number;
}) {
  const { node } = row;
  const key = treeRowKey(node);
  return (
    <div
      id={domId}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={node.kind === 'dir' ? expanded : undefined}
      aria-current={current ? 'true' : undefined}
      aria-label={treeRowLabel(node.name, node.kind === 'file' && node.file.file.countsKnown ? node.file : null, viewed)}
      tabIndex={focused ? 0 : -1}
      className={`${styles.row} ${current ? styles.current : ''} ${viewed ? styles.viewed : ''}`}
      style={{ transform: `translateY(${top}px)`, paddingLeft: row.depth * INDENT + 4 }}
      onClick={() => {
        onFocusRow(key);
        onActivate(row);
      }}
      title={node.path}
    >
      {node.kind === 'dir' ? (
        <>
          {expanded ? <ChevronDownIcon className={styles.chevron} /> : <ChevronRightIcon className={styles.chevron} />}
          {expanded ? <FileDirectoryOpenFillIcon className={styles.dir} /> : <FileDirectoryFillIcon className={styles.dir} />}
          <span className={styles.name}>{node.name}</span>
        </>
      ) : (
        <>
          <span className={styles.chevron} />
          <FileStatusIcon file={node.file.file} />
          <span className={styles.name}>{node.name}</span>
          {viewed ? <EyeIcon className={styles.viewedIcon} aria-hidden="true" /> : null}
          {node.file.file.countsKnown ? (
            <span className={styles.counts} aria-hidden="true">
              <span className={styles.added}>+{node.file.added}</span> <span className={styles.removed}>−{node.file.removed}</span>
            </span>
          ) : null}
        </>
      )}
    </div>
  );
});

/**
 * The changed files as a tree: collapsible directories, status icons, +/− per file, a
 * filter. Rows are virtualised (a thousand files stay cheap when the current file
 * changes while scrolling), with the ARIA tree pattern's keys: ↑ ↓ move, → opens or
 * enters, ← closes or goes up, Home and End, Enter selects.
 */
export const DiffFileTree = memo(function DiffFileTree({ files, current, onSelect, isViewed }: {
  files: readonly DiffFile[];
  current: DiffFile | null;
  onSelect: (file: DiffFile) => void;
  /** a merge request's Changes tab marks the files ticked 'Viewed' (elsewhere there are none) */
  isViewed?: (file: DiffFile) => boolean;
}) {
  const [filter, setFilter] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const idPrefix = useRef(`tree-${Math.random().toString(36).slice(2)}`).current;

  const entries = useMemo(() => files.map((file) => ({ id: file.id, path: displayPath(file), added: file.added, removed: file.removed, file })), [files]);
  const tree = useMemo(() => buildDiffTree(filterTreeFiles(entries, filter)), [entries, filter]);
  const rows = useMemo(() => flattenTree(tree, collapsed), [tree, collapsed]);
  const indexOf = useMemo(() => new Map(rows.map((row, index) => [treeRowKey(row.node), index])), [rows]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TREE_ROW_HEIGHT,
    overscan: 8,
  });

  const toggle = useCallback((path: string, open?: boolean) => {
    setCollapsed((previous) => {
      const next = new Set(previous);
      const shouldOpen = open ?? next.has(path);
      if (shouldOpen) next.delete(path);
      else next.add(path);
      return next;
    });
  }, []);

  const activate = useCallback(
    (row: FlatTreeRow<TreeFile>) => {
      if (row.node.kind === 'dir') toggle(row.node.path);
      else onSelect(row.node.file.file);
    },
    [toggle, onSelect],
  );

  // Keep the current file in view in the tree as the diff scrolls.
  const currentIndex = current ? indexOf.get(current.id) : undefined;
  useEffect(() => {
    if (currentIndex !== undefined) virtualizer.scrollToIndex(currentIndex, { align: 'auto' });
  }, [currentIndex, virtualizer]);

  const focusedIndex = focusedKey === null ? -1 : (indexOf.get(focusedKey) ?? -1);
  const tabStop = focusedIndex >= 0 ? focusedIndex : (currentIndex ?? 0);

  function moveFocus(index: number) {
    const row = rows[index];
    if (!row) return;
    const key = treeRowKey(row.node);
    setFocusedKey(key);
    virtualizer.scrollToIndex(index, { align: 'auto' });
    // The row may only exist after the scroll renders it.
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-${index}`)?.focus());
  }

  function onKeyDown(event: KeyboardEvent) {
    const row = rows[tabStop];
    if (!row) return;
    const handled = (() => {
      switch (event.key) {
        case 'ArrowDown':
          moveFocus(Math.min(tabStop + 1, rows.length - 1));
          return true;
        case 'ArrowUp':
          moveFocus(Math.max(tabStop - 1, 0));
          return true;
        case 'Home':
          moveFocus(0);
          return true;
        case 'End':
          moveFocus(rows.length - 1);
          return true;
        case 'ArrowRight':
          if (row.node.kind === 'dir') {
            if (collapsed.has(row.node.path)) toggle(row.node.path, true);
            else moveFocus(tabStop + 1);
          }
          return true;
        case 'ArrowLeft':
          if (row.node.kind === 'dir' && !collapsed.has(row.node.path)) toggle(row.node.path, false);
          else if (row.parent !== null) moveFocus(indexOf.get(`dir:${row.parent}`) ?? tabStop);
          return true;
        case 'Enter':
        case ' ':
          activate(row);
          return true;
        default:
          return false;
      }
    })();
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  return (
    <nav className={styles.panel} aria-label="Changed files">
      <TextInput leadingVisual={SearchIcon} placeholder="Filter files" aria-label="Filter files" value={filter} onChange={(event) => setFilter(event.target.value)} size="small" block />
      {rows.length === 0 ? (
        // No files at all only while the tree's first render is still to come (the viewer shows an empty diff itself).
        filter ? <p className={styles.empty}>No files match the filter.</p> : null
      ) : (
        <div ref={scrollRef} className={styles.scroller}>
          <div role="tree" aria-label="Changed files tree" className={styles.tree} style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              const key = treeRowKey(row.node);
              return (
                <TreeRow
                  key={key}
                  row={row}
                  domId={`${idPrefix}-${item.index}`}
                  top={item.start}
                  current={row.node.kind === 'file' && row.node.file.id === current?.id}
                  viewed={row.node.kind === 'file' && isViewed !== undefined && isViewed(row.node.file.file)}
                  focused={item.index === tabStop}
                  expanded={row.node.kind === 'dir' && !collapsed.has(row.node.path)}
                  onActivate={activate}
                  onFocusRow={setFocusedKey}
                />
              );
            })}
          </div>
        </div>
      )}
    </nav>
  );
});
