import { ChevronDownIcon, ChevronRightIcon, FileIcon } from '@primer/octicons-react';
import { Button, Link } from '@primer/react';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
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

/** The most of a log the page shows (GitLab's job page shows the last 500 KiB): the rest is in the raw log. */
export const MAX_SHOWN_LOG_CHARS = 1_000_000;

/** The end of `log` that the page shows, starting at a line, and whether anything was left out. Pure. */
export function shownPart(log: string, max = MAX_SHOWN_LOG_CHARS): { text: string; truncated: boolean } {
  if (log.length <= max) return { text: log, truncated: false };
  const tail = log.slice(log.length - max);
  const newline = tail.indexOf('\n');
  return { text: newline === -1 ? tail : tail.slice(newline + 1), truncated: true };
}

/** `10:00:01` of an ISO 8601 UTC timestamp. */
const clock = (timestamp: string) => timestamp.slice(11, 19);

/**
 * A job's log: numbered lines, ANSI colours as styled text (never HTML), sections that fold at
 * their header, gitlab-runner's per-line timestamps, 'Scroll to bottom' (and the view follows the
 * end while it is there as lines arrive), a link to the complete raw text, and only the last part
 * of a very long log. `log` null: no log yet.
 */
export function JobLog({ log, rawUrl }: { log: string | null; rawUrl: string }) {
  const shown = useMemo(() => (log === null ? null : shownPart(log)), [log]);
  const lines = useMemo(() => (shown === null ? [] : parseJobLog(shown.text)), [shown]);
  const following = useRef(false);
  const bottom = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onScroll = () => {
      following.current = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 4;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  useEffect(() => {
    if (following.current) bottom.current?.scrollIntoView({ block: 'end' });
  }, [lines]);
  const [collapsed, setCollapsed] = useState<Set<string> | null>(null);
  const folded = collapsed ?? initiallyCollapsed(lines);
  if (shown === null || lines.length === 0) {
    return <EmptyState icon={FileIcon} title="No job log" description="This job has no log yet. It shows here once a runner sends it." />;
  }
  const toggle = (key: string) => {
    const next = new Set(folded);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };
  return (
    <div className={styles.panel} ref={top}>
      <div className={styles.toolbar}>
        <Link href={rawUrl} target="_blank" rel="noopener noreferrer">
          Show complete raw
        </Link>
        <Button size="small" onClick={() => top.current?.scrollIntoView({ block: 'start' })}>
          Scroll to top
        </Button>
        <Button
          size="small"
          onClick={() => {
            following.current = true;
            bottom.current?.scrollIntoView({ block: 'end' });
          }}
        >
          Scroll to bottom
        </Button>
      </div>
      {shown.truncated ? (
        <p className={styles.notice}>
          Showing the last {Math.round(MAX_SHOWN_LOG_CHARS / 1000)} kB of the log.{' '}
          <Link href={rawUrl} target="_blank" rel="noopener noreferrer">
            Complete raw
          </Link>
        </p>
      ) : null}
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
              {line.timestamp ? (
                <time className={styles.timestamp} dateTime={line.timestamp}>
                  {clock(line.timestamp)}
                </time>
              ) : null}
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
