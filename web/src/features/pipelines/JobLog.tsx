import { ChevronDownIcon, ChevronRightIcon, FileIcon } from '@primer/octicons-react';
import { Button, Link } from '@primer/react';
import { useMemo, useRef, useState, type CSSProperties } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { basicColourName, extendedColour, initiallyCollapsed, parseJobLog, sectionPath, visibleLines, type LogSegment } from './ansi';
import styles from './JobLog.module.css';

function segmentClass(segment: LogSegment): string {
  const { style } = segment;
  const classes: string[] = [];
  const fg = basicColourName(style.fg);
  const bg = basicColourName(style.bg);
  if (fg) classes.push(styles[`fg-${fg}`] ?? '');
  if (bg) classes.push(styles[`bg-${bg}`] ?? '');
  if (style.bold) classes.push(styles.bold ?? '');
  if (style.italic) classes.push(styles.italic ?? '');
  if (style.underline) classes.push(styles.underline ?? '');
  return classes.join(' ');
}

function segmentStyle(segment: LogSegment): CSSProperties | undefined {
  const color = extendedColour(segment.style.fg);
  const background = extendedColour(segment.style.bg);
  return color || background ? { color: color ?? undefined, backgroundColor: background ?? undefined } : undefined;
}

const formatSectionDuration = (seconds: number) => `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * A job's log: numbered lines, ANSI colours as styled text (never HTML), sections that fold at
 * their header, 'Scroll to bottom' and a link to the complete raw text. `log` null: no log yet.
 */
export function JobLog({ log, rawUrl }: { log: string | null; rawUrl: string }) {
  const lines = useMemo(() => (log === null ? [] : parseJobLog(log)), [log]);
  const [collapsed, setCollapsed] = useState<Set<string> | null>(null);
  const folded = collapsed ?? initiallyCollapsed(lines);
  const bottom = useRef<HTMLDivElement>(null);
  if (log === null || lines.length === 0) {
    return <EmptyState icon={FileIcon} title="No job log" description="This job has no log yet. It shows here once a runner sends it." />;
  }
  const toggle = (key: string) => {
    const next = new Set(folded);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };
  return (
    <div className={styles.panel}>
      <div className={styles.toolbar}>
        <Link href={rawUrl} target="_blank" rel="noopener noreferrer">
          Show complete raw
        </Link>
        <Button size="small" onClick={() => bottom.current?.scrollIntoView({ block: 'end' })}>
          Scroll to bottom
        </Button>
      </div>
      <div className={styles.log} role="log" aria-label="Job log">
        {visibleLines(lines, folded).map((line) => {
          const key = line.header ? sectionPath(line.sections, line.sections.length - 1) : null;
          const isFolded = key !== null && folded.has(key);
          const content = line.segments.map((segment, index) => (
            <span key={index} className={segmentClass(segment)} style={segmentStyle(segment)}>
              {segment.text}
            </span>
          ));
          return (
            <div key={line.number} className={styles.line} data-line={line.number}>
              <span className={styles.number} aria-hidden="true">
                {line.number}
              </span>
              {key !== null ? (
                <button type="button" className={styles.sectionHeader} aria-expanded={!isFolded} onClick={() => toggle(key)}>
                  {isFolded ? <ChevronRightIcon size={12} /> : <ChevronDownIcon size={12} />}
                  <span className={styles.text}>{content}</span>
                  {line.header!.duration !== null ? <span className={styles.duration}>{formatSectionDuration(line.header!.duration)}</span> : null}
                </button>
              ) : (
                <span className={styles.text}>{content}</span>
              )}
            </div>
          );
        })}
        <div ref={bottom} />
      </div>
    </div>
  );
}
