import { FoldDownIcon, FoldUpIcon, UnfoldIcon } from '@primer/octicons-react';
import { Spinner } from '@primer/react';
import { n } from '@tributary/contracts/i18n';
import { memo, useEffect, useSyncExternalStore } from 'react';
import type { DiffFile } from '../../lib/diff-file';
import type { DiffRow, ExpanderRow as ExpanderRowData, LineRow } from '../../lib/diff-rows';
import { gapsOf, type ExpandDirection } from '../../lib/hunk-expansion';
import { escapeHtml } from '../../lib/highlight-lines';
import type { SideBySideRow } from '../../lib/side-by-side';
import { useDiffContext } from './DiffContext';
import { displayPath } from '../../lib/diff-file';
import { pointAttribute } from '../../lib/diff-rows';
import { useDiffSlots, type DiffSlots } from './DiffSlots';
import styles from './DiffRows.module.css';

const MARKER = { add: '+', delete: '-', context: ' ' } as const;

const DIRECTION_LABEL: Record<ExpandDirection, string> = { up: 'Expand up', down: 'Expand down', all: 'Expand all' };
const DIRECTION_ICON = { up: FoldUpIcon, down: FoldDownIcon, all: UnfoldIcon } as const;

type LineHtml = (line: LineRow) => string;

/**
 * The file's lines as HTML: highlighted once the file's highlighting is ready, escaped
 * text until then. Used once per block of rows (not per row): one subscription, and the
 * request that keeps the file in the highlighting queue while the block is on screen.
 */
function useLineHtml(file: DiffFile): LineHtml {
  const { highlights, stateOf } = useDiffContext();
  const state = stateOf(file);
  useEffect(() => highlights.request(file, state), [highlights, file, state]);
  const highlight = useSyncExternalStore(highlights.subscribe, () => highlights.peek(file));
  return (line) => {
    const html = highlight ? (line.type === 'delete' ? highlight.old.get(line.oldLine ?? 0) : highlight.new.get(line.newLine ?? 0)) : undefined;
    return html ?? escapeHtml(line.text);
  };
}

/** The marker (+, -) is drawn by CSS from data-marker: one element per line, not three (thousands of rows mount while scrolling). */
function Code({ line, html }: { line: LineRow; html: string }) {
  // highlight.js output or escapeHtml(): escaped markup only.
  return <span className={styles.code} data-marker={MARKER[line.type]} dangerouslySetInnerHTML={{ __html: html || '\u200b' }} />;
}

function Expander({ file, row }: { file: DiffFile; row: ExpanderRowData }) {
  const { actions, stateOf } = useDiffContext();
  const state = stateOf(file);
  const loading = state.load === 'loading';
  const parsed = state.computed ?? file.parsed;
  const gap = gapsOf(parsed.hunks, state.texts?.new?.length ?? null)[row.gapIndex];
  return (
    <div className={`${styles.row} ${styles.full} ${styles.expander}`}>
      <span className={styles.expandButtons}>
        {loading ? (
          <Spinner size="small" srText="Loading lines" />
        ) : gap ? (
          // Plain buttons: there can be thousands of these rows, and Primer's IconButton (with its tooltip) costs more per row.
          row.directions.map((direction) => {
            const Icon = DIRECTION_ICON[direction];
            return (
              <button key={direction} type="button" className={styles.expandButton} aria-label={DIRECTION_LABEL[direction]} title={DIRECTION_LABEL[direction]} onClick={() => actions.expandGap(file, gap, direction)}>
                <Icon size={14} />
              </button>
            );
          })
        ) : null}
      </span>
      <span className={styles.hunkText}>
        {row.header ?? ''}
        {row.hidden !== null ? <span className={styles.hidden}>{n('%d hidden line', '%d hidden lines', row.hidden)}</span> : null}
      </span>
    </div>
  );
}

function FullRow({ file, row }: { file: DiffFile; row: Exclude<DiffRow, LineRow> }) {
  if (row.type === 'expander') return <Expander file={file} row={row} />;
  return (
    <div className={`${styles.row} ${styles.full} ${row.type === 'hunk' ? styles.hunk : styles.note}`}>
      <span className={styles.hunkText}>{row.type === 'hunk' ? row.header : row.text}</span>
    </div>
  );
}

const isLine = (row: DiffRow): row is LineRow => row.type === 'context' || row.type === 'add' || row.type === 'delete';

/** One row of the inline view: old and new line numbers, then the line. */
function InlineRow({ file, row, html, slots }: { file: DiffFile; row: DiffRow; html: LineHtml; slots: DiffSlots }) {
  if (!isLine(row)) return <FullRow file={file} row={row} />;
  const { LineGutterAction, LineThreads, LineCoverage } = slots;
  return (
    <>
      <div className={`${styles.row} ${styles.inline} ${styles[row.type]} ${row.expanded ? styles.expanded : ''}`} data-point={pointAttribute(row)} data-path={displayPath(file)}>
        <span className={`${styles.num} ${styles.commentable}`}>
          {LineGutterAction ? <LineGutterAction file={file} row={row} /> : null}
          {row.oldLine ?? ''}
        </span>
        <span className={`${styles.num} ${styles.newNum}`}>
          {row.newLine ?? ''}
          {LineCoverage && row.newLine != null ? <LineCoverage file={file} row={row} /> : null}
        </span>
        <Code line={row} html={html(row)} />
      </div>
      {LineThreads ? <LineThreads file={file} row={row} /> : null}
    </>
  );
}

function Side({ file, line, side, html, slots }: { file: DiffFile; line: LineRow | null; side: 'left' | 'right'; html: LineHtml; slots: DiffSlots }) {
  if (!line) {
    return (
      <>
        <span className={`${styles.num} ${styles.empty}`} />
        <span className={`${styles.code} ${styles.empty}`} />
      </>
    );
  }
  const type = line.type === 'context' ? 'context' : line.type;
  const point = pointAttribute(line);
  const path = displayPath(file);
  const { LineGutterAction, LineCoverage } = slots;
  return (
    <>
      <span className={`${styles.num} ${styles[type]} ${styles.commentable}`} data-point={point} data-path={path}>
        {LineGutterAction ? <LineGutterAction file={file} row={line} /> : null}
        {side === 'left' ? line.oldLine : line.newLine}
        {LineCoverage && side === 'right' && line.newLine != null ? <LineCoverage file={file} row={line} /> : null}
      </span>
      <span className={`${styles.cell} ${styles[type]}`} data-point={point} data-path={path}>
        <Code line={line} html={html(line)} />
      </span>
    </>
  );
}

/** One row of the side-by-side view: old on the left, new on the right. */
function PairRow({ file, row, html, slots }: { file: DiffFile; row: SideBySideRow<DiffRow>; html: LineHtml; slots: DiffSlots }) {
  if (row.kind === 'full') return isLine(row.row) ? <InlineRow file={file} row={row.row} html={html} slots={slots} /> : <FullRow file={file} row={row.row} />;
  const { LineThreads } = slots;
  const left = row.left && isLine(row.left) ? row.left : null;
  const right = row.right && isLine(row.right) ? row.right : null;
  const expanded = left?.expanded || right?.expanded;
  return (
    <>
      <div className={`${styles.row} ${styles.parallel} ${expanded ? styles.expanded : ''}`}>
        <Side file={file} line={left} side="left" html={html} slots={slots} />
        <Side file={file} line={right} side="right" html={html} slots={slots} />
      </div>
      {LineThreads && left ? <LineThreads file={file} row={left} /> : null}
      {LineThreads && right && right !== left && !(left?.type === 'context' && right.type === 'context') ? <LineThreads file={file} row={right} /> : null}
    </>
  );
}

/** A block of inline rows (one virtual item). */
export const InlineRows = memo(function InlineRows({ file, rows }: { file: DiffFile; rows: readonly DiffRow[] }) {
  const html = useLineHtml(file);
  const slots = useDiffSlots();
  return rows.map((row, index) => <InlineRow key={index} file={file} row={row} html={html} slots={slots} />);
});

/** A block of side-by-side rows (one virtual item). */
export const PairRows = memo(function PairRows({ file, rows }: { file: DiffFile; rows: readonly SideBySideRow<DiffRow>[] }) {
  const html = useLineHtml(file);
  const slots = useDiffSlots();
  return rows.map((row, index) => <PairRow key={index} file={file} row={row} html={html} slots={slots} />);
});
