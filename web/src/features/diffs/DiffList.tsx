import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { forwardRef, memo, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import { measureAfterLayout, scrollAfterAttaching, usePageOffset } from '../../lib/window-virtualizer';
import type { DiffItem, DiffViewMode } from './diff-items';
import { DiffFileHeader } from './DiffFileHeader';
import { InlineRows, PairRows } from './DiffRows';
import { useDiffSlots } from './DiffSlots';
import { FileBody } from './FileBody';
import styles from './DiffViewer.module.css';

/**
 * Items rendered beyond the visible ones. One: a block of rows is up to 32 rows tall, so
 * one item each side already covers a wheel step, and every extra one is rows to build
 * and lay out when the reader jumps (a scroll-bar drag mounts everything anew).
 */
const OVERSCAN = 1;
/** Heights in pixels, as DiffRows.module.css and DiffFileHeader.module.css draw them. */
const ROW_HEIGHT = 20;
const EXPANDER_HEIGHT = 28;
const HEADER_HEIGHT = 44;
const END_HEIGHT = 16;
const BODY_HEIGHT = 120;
/** How long a jump to a file keeps aiming at it while the items around it are measured. */
const PIN_MS = 2000;

const sizes = new WeakMap<DiffItem, number>();

/**
 * An item's height before it is measured: exact for rows that do not wrap, so measuring
 * a newly shown block usually confirms the estimate and the virtualiser has nothing to
 * re-lay out (a changed size re-sums every item after it). Cached per item object.
 */
function estimateSize(item: DiffItem | undefined): number {
  if (!item) return END_HEIGHT;
  let size = sizes.get(item);
  if (size !== undefined) return size;
  switch (item.kind) {
    case 'header':
      size = HEADER_HEIGHT;
      break;
    case 'lines':
      size = 0;
      for (const row of item.rows) size += row.type === 'expander' ? EXPANDER_HEIGHT : ROW_HEIGHT;
      break;
    case 'pairs':
      size = 0;
      for (const row of item.rows) size += row.kind === 'full' && row.row.type === 'expander' ? EXPANDER_HEIGHT : ROW_HEIGHT;
      break;
    case 'body':
      size = BODY_HEIGHT;
      break;
    case 'end':
      size = END_HEIGHT;
      break;
  }
  sizes.set(item, size);
  return size;
}

/** Items are stable objects (cached per file state), so a scroll renders only the new ones. */
const Item = memo(function Item({ item }: { item: DiffItem }) {
  const { FileComments } = useDiffSlots();
  switch (item.kind) {
    case 'header':
      return (
        <>
          <DiffFileHeader file={item.file} />
          {FileComments ? <FileComments file={item.file} /> : null}
        </>
      );
    case 'lines':
      return <InlineRows file={item.file} rows={item.rows} />;
    case 'pairs':
      return <PairRows file={item.file} rows={item.rows} />;
    case 'body':
      return <FileBody file={item.file} body={item.body} />;
    case 'end':
      return null;
  }
});

/**
 * How far (≤ 0) the sticky header of the file whose header item is `headerIndex` moves up so that its
 * bottom stays above the next file's header, which starts where the file's last item ends.
 */
function slideUp(items: readonly DiffItem[], measurements: ReadonlyArray<{ start: number } | undefined>, headerIndex: number, visibleTop: number): number {
  const file = items[headerIndex]?.file;
  let next = headerIndex + 1;
  while (next < items.length && items[next]?.file === file) next += 1;
  const nextStart = measurements[next]?.start;
  return nextStart === undefined ? 0 : Math.min(0, nextStart - visibleTop - HEADER_HEIGHT);
}

export interface DiffListHandle {
  scrollToFile(file: DiffFile): void;
}

/**
 * The window-scrolled virtual list of all files' items. It alone re-renders while
 * scrolling; the viewer hears only when the file at the top changes.
 */
export const DiffList = forwardRef<DiffListHandle, {
  items: DiffItem[];
  headerIndex: Map<string, number>;
  mode: DiffViewMode;
  /** Height of the app's sticky bar, which covers the top of the window. */
  topInset: number;
  onCurrentChange: (file: DiffFile | null) => void;
}>(function DiffList({ items, headerIndex, mode, topInset, onCurrentChange }, handle) {
  const listRef = useRef<HTMLDivElement>(null);
  const pinned = useRef<{ index: number; until: number } | null>(null);
  const scrollMargin = usePageOffset(listRef);
  const [scrollToFn] = useState(scrollAfterAttaching);

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: (index) => estimateSize(items[index]),
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: OVERSCAN,
    scrollMargin,
    // Render after the scroll event rather than inside it, so one frame's work is not one long task.
    useFlushSync: false,
    // Files scrolled to land below the app's sticky bar.
    scrollPaddingStart: topInset,
    // sizes and the first scroll are read after the browser's layout, not inside the commit
    measureElement: measureAfterLayout,
    scrollToFn,
  });

  useImperativeHandle(handle, () => ({
    scrollToFile(file) {
      const index = headerIndex.get(file.id);
      if (index === undefined) return;
      pinned.current = { index, until: performance.now() + PIN_MS };
      virtualizer.scrollToIndex(index, { align: 'start' });
    },
  }), [headerIndex, virtualizer]);

  // Items mounted around a file jumped to are measured only once drawn (an image that loads,
  // diff threads) and may be far taller than estimated, which moves the file: while they
  // settle, the list keeps aiming at it, until the reader scrolls.
  const totalSize = virtualizer.getTotalSize();
  useEffect(() => {
    const pin = pinned.current;
    if (!pin) return;
    if (performance.now() > pin.until) pinned.current = null;
    else virtualizer.scrollToIndex(pin.index, { align: 'start' });
  }, [totalSize, virtualizer]);
  useEffect(() => {
    const release = () => {
      pinned.current = null;
    };
    const options = { passive: true } as const;
    window.addEventListener('wheel', release, options);
    window.addEventListener('touchstart', release, options);
    window.addEventListener('keydown', release);
    return () => {
      window.removeEventListener('wheel', release);
      window.removeEventListener('touchstart', release);
      window.removeEventListener('keydown', release);
    };
  }, []);

  // The file under the app's bar, for the tree and the sticky file header. Item starts include scrollMargin.
  const visibleTop = (virtualizer.scrollOffset ?? 0) + topInset;
  const topItem = visibleTop > scrollMargin ? virtualizer.getVirtualItemForOffset(visibleTop + 1) : undefined;
  const current = topItem ? (items[topItem.index]?.file ?? null) : (items[0]?.file ?? null);
  const currentHeaderIndex = current ? headerIndex.get(current.id) : undefined;
  const currentHeaderStart = currentHeaderIndex === undefined ? null : virtualizer.measurementsCache[currentHeaderIndex]?.start;
  const showSticky = topItem !== undefined && current !== null && currentHeaderStart != null && visibleTop > currentHeaderStart + 1;
  // The sticky header slides up with the end of its file: it never lies over the next file's own
  // header (a file chosen in the tree that lands a few pixels short, while rows above it are measured).
  const stickyShift = showSticky && currentHeaderIndex !== undefined ? slideUp(items, virtualizer.measurementsCache, currentHeaderIndex, visibleTop) : 0;

  useEffect(() => onCurrentChange(current), [current, onCurrentChange]);

  return (
    <div className={styles.files}>
      {showSticky && current ? (
        <div className={styles.stickyHeader} style={{ top: topInset, transform: stickyShift < 0 ? `translateY(${stickyShift}px)` : undefined }} data-sticky-file={current.id}>
          {/* Keyed by the file: when another file reaches the top, this header (and a menu open in it) is that file's own, never the last file's reused. */}
          <DiffFileHeader key={current.id} file={current} />
        </div>
      ) : null}
      <div ref={listRef} className={styles.list} data-view={mode} style={{ height: virtualizer.getTotalSize() }} aria-label="Changes" role="region">
        {virtualizer.getVirtualItems().map((virtualItem) => {
          const item = items[virtualItem.index];
          if (!item) return null;
          return (
            <div
              key={virtualItem.key}
              ref={virtualizer.measureElement}
              data-index={virtualItem.index}
              id={item.kind === 'header' ? item.file.id : undefined}
              className={[styles.item, styles[item.kind]].filter(Boolean).join(' ')}
              style={{ transform: `translateY(${virtualItem.start - scrollMargin}px)` }}
            >
              <Item item={item} />
            </div>
          );
        })}
      </div>
    </div>
  );
});
