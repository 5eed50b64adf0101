import { FileDiffIcon, SidebarCollapseIcon, SidebarExpandIcon } from '@primer/octicons-react';
import { IconButton, ProgressBar, SegmentedControl } from '@primer/react';
import { n } from '@tributary/contracts/i18n';
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { diffTotals, type DiffFile, type DiffTotals } from '../../lib/diff-file';
import { createHighlightStore } from './highlight-store';
import { buildDiffItems, type DiffViewMode, type ItemCache } from './diff-items';
import { DiffContext, type DiffRefs, type DiffRenderContext } from './DiffContext';
import { DiffFileTree } from './DiffFileTree';
import { DiffList, type DiffListHandle } from './DiffList';
import { DiffSlotsContext, type DiffSlots } from './DiffSlots';
import { DiffStats } from './DiffStats';
import { fileStatesReducer, INITIAL_FILE_STATE } from './file-states';
import { isTyping, useChosenFile } from './useChosenFile';
import { useDiffViewMode } from './useDiffViewMode';
import { useFileActions } from './useFileActions';
import styles from './DiffViewer.module.css';

const NO_FILES: readonly DiffFile[] = [];
const NO_SLOTS: DiffSlots = {};

/** The file tree's visibility, remembered like the view mode. */
const TREE_STORAGE_KEY = 'tributary.diff_tree_hidden';

export interface DiffLoadProgress {
  loaded: number;
  /** Files in the whole diff, when the server said (X-Total). */
  total: number | null;
  done: boolean;
  error: unknown;
  retry: () => void;
}

/** The height of the app's sticky top bar (marked `data-sticky-top`), which covers the top of the window. */
function useStickyTopInset(): number {
  const [inset, setInset] = useState(0);
  useLayoutEffect(() => {
    const bar = document.querySelector<HTMLElement>('[data-sticky-top]');
    if (!bar) return;
    const measure = () => setInset(bar.getBoundingClientRect().height);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);
  return inset;
}


function useTreeVisible(): [boolean, (visible: boolean) => void] {
  const [visible, setVisible] = useState(() => {
    try {
      return window.localStorage.getItem(TREE_STORAGE_KEY) !== '1';
    } catch {
      return true;
    }
  });
  return [
    visible,
    (next) => {
      setVisible(next);
      try {
        window.localStorage.setItem(TREE_STORAGE_KEY, next ? '0' : '1');
      } catch {
        // no storage: remembered for this page only
      }
    },
  ];
}

/** Re-rendered only when its props change, not while the list scrolls (Primer's controls are not free). */
const DiffToolbar = memo(function DiffToolbar({ mode, onMode, treeVisible, onTreeVisible, totals, partial, extra }: {
  mode: DiffViewMode;
  onMode: (mode: DiffViewMode) => void;
  treeVisible: boolean;
  onTreeVisible: (visible: boolean) => void;
  totals: DiffTotals;
  partial: boolean;
  extra: ReactNode;
}) {
  return (
    <div className={styles.toolbar}>
      <IconButton
        icon={treeVisible ? SidebarExpandIcon : SidebarCollapseIcon}
        aria-label={treeVisible ? 'Hide file browser' : 'Show file browser'}
        aria-pressed={treeVisible}
        size="small"
        onClick={() => onTreeVisible(!treeVisible)}
      />
      {extra}
      <span className={styles.spacer} />
      <DiffStats totals={totals} partial={partial} />
      <SegmentedControl aria-label="Diff view" size="small">
        <SegmentedControl.Button selected={mode === 'inline'} onClick={() => onMode('inline')}>
          Inline
        </SegmentedControl.Button>
        <SegmentedControl.Button selected={mode === 'parallel'} onClick={() => onMode('parallel')}>
          Side-by-side
        </SegmentedControl.Button>
      </SegmentedControl>
    </div>
  );
});

/**
 * The reusable diff viewer: stats, inline / side-by-side toggle (remembered), a file tree,
 * and every file's header and rows in one window-scrolled virtual list, so a diff of a
 * thousand files renders only what is on screen. `j`/`k` (or `]`/`[`) move between files.
 */
export function DiffViewer({ files, refs, progress, toolbar, emptyTitle = 'No changes', emptyDescription, slots = NO_SLOTS, isViewed }: {
  files: readonly DiffFile[];
  refs: DiffRefs;
  progress: DiffLoadProgress;
  toolbar?: ReactNode;
  emptyTitle?: string;
  emptyDescription?: ReactNode;
  /** What the page puts into the viewer's rows, headers and menus (DiffSlots); one object for the page's life. */
  slots?: DiffSlots;
  /** Files the reader marked 'Viewed' (a merge request): they start collapsed until opened, and the tree marks them. */
  isViewed?: (file: DiffFile) => boolean;
}) {
  const [mode, setMode] = useDiffViewMode();
  const [treeVisible, setTreeVisible] = useTreeVisible();
  const [states, dispatch] = useReducer(fileStatesReducer, {});
  const actions = useFileActions(refs, states, dispatch);

  // A new comparison (other SHAs) starts from scratch.
  useEffect(() => dispatch({ type: 'reset' }), [refs.baseSha, refs.headSha]);

  const itemCache = useRef(new WeakMap<DiffFile, Parameters<ItemCache['set']>[1]>());
  const { items, headerIndex } = useMemo(() => buildDiffItems(files, states, mode, itemCache.current), [files, states, mode]);

  const [highlights] = useState(createHighlightStore);
  const statesRef = useRef(states);
  statesRef.current = states;

  // Files marked 'Viewed' in a merge request start collapsed (until the reader opens them).
  useEffect(() => {
    if (!isViewed) return;
    for (const file of files) {
      if (statesRef.current[file.id]?.collapsed === undefined && isViewed(file)) dispatch({ type: 'set-collapsed', id: file.id, collapsed: true });
    }
  }, [files, isViewed]);
  const stateOf = useCallback((file: DiffFile) => statesRef.current[file.id] ?? INITIAL_FILE_STATE, []);
  // A new object whenever states change, so rows re-render with their file's new state.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- states is read through statesRef; it is listed so that rows re-render
  const context = useMemo<DiffRenderContext>(() => ({ refs, mode, stateOf, highlights, actions }), [refs, mode, stateOf, highlights, actions, states]);

  const topInset = useStickyTopInset();
  const listHandle = useRef<DiffListHandle>(null);
  const [current, setCurrent] = useState<DiffFile | null>(null);
  const [selected, choose] = useChosenFile(`${refs.baseSha}..${refs.headSha}`);
  const scrollToFile = useCallback(
    (file: DiffFile) => {
      choose(file);
      listHandle.current?.scrollToFile(file);
    },
    [choose],
  );

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const step = event.key === 'j' || event.key === ']' ? 1 : event.key === 'k' || event.key === '[' ? -1 : 0;
      if (step === 0 || files.length === 0) return;
      const from = selected ?? current;
      const at = from ? files.indexOf(from) : -1;
      const target = files[Math.min(Math.max(at + step, 0), files.length - 1)];
      if (target) {
        event.preventDefault();
        scrollToFile(target);
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [files, current, selected, scrollToFile]);

  const totals = useMemo(() => diffTotals(files), [files]);
  // The tree follows in a later, interruptible render: the first file's rows come first.
  const treeFiles = useDeferredValue(files, NO_FILES);
  const loadingMore = !progress.done && !progress.error;

  return (
    <DiffContext.Provider value={context}>
      <DiffSlotsContext.Provider value={slots}>
      <div className={styles.viewer}>
        <DiffToolbar mode={mode} onMode={setMode} treeVisible={treeVisible} onTreeVisible={setTreeVisible} totals={totals} partial={loadingMore} extra={toolbar} />
        {loadingMore ? (
          <div className={styles.progress} role="status" aria-live="polite">
            <span>{progress.total ? `Loading files: ${progress.loaded} of ${progress.total}` : `Loading files: ${n('%d file', '%d files', progress.loaded)} so far`}</span>
            <ProgressBar progress={progress.total ? Math.round((progress.loaded / progress.total) * 100) : 0} aria-label="Files loaded" barSize="small" className={styles.bar} />
          </div>
        ) : null}
        {progress.error ? <PageError title="Some files could not be loaded." error={progress.error} onRetry={progress.retry} /> : null}
        {files.length === 0 && progress.done ? (
          <EmptyState icon={FileDiffIcon} title={emptyTitle} description={emptyDescription} />
        ) : (
          <div className={treeVisible ? styles.layout : styles.layoutFull}>
            {treeVisible ? (
              <aside className={styles.treePane} style={{ top: topInset + 8, height: `calc(100vh - ${topInset + 16}px)` }}>
                <DiffFileTree files={treeFiles} current={selected ?? current} onSelect={scrollToFile} isViewed={isViewed} />
              </aside>
            ) : null}
            <DiffList ref={listHandle} items={items} headerIndex={headerIndex} mode={mode} topInset={topInset} onCurrentChange={setCurrent} />
          </div>
        )}
      </div>
      </DiffSlotsContext.Provider>
    </DiffContext.Provider>
  );
}
