import { useLayoutEffect, useState, type RefObject } from 'react';
import type { NeedLink } from './job-groups';
import styles from './PipelineGraph.module.css';

interface Drawn {
  key: string;
  d: string;
  from: string;
  to: string;
}

/** The card of `name` inside `container` (cards carry their group name in `data-job`). */
function cardOf(container: HTMLElement, name: string): HTMLElement | null {
  for (const element of container.querySelectorAll<HTMLElement>('[data-job]')) if (element.dataset.job === name && !element.closest('[role="dialog"]')) return element;
  return null;
}

/**
 * A curve from the right edge of the needed card to the left edge of the card that needs it, in
 * the container's coordinates (GitLab draws its links the same way, from measured positions).
 */
export function linkPath(from: DOMRect, to: DOMRect, origin: DOMRect): string {
  const startX = to.right - origin.left;
  const startY = to.top + to.height / 2 - origin.top;
  const endX = from.left - origin.left;
  const endY = from.top + from.height / 2 - origin.top;
  const bend = Math.max(16, (endX - startX) / 2);
  return `M ${startX} ${startY} C ${startX + bend} ${startY}, ${endX - bend} ${endY}, ${endX} ${endY}`;
}

/**
 * The `needs` lines of the graph as one SVG behind the cards: positions are measured after
 * layout and measured again whenever the container changes size (a resize, cards that grow).
 * Lines of the hovered card's needs chain are highlighted.
 */
export function NeedsLinks({ container, links, highlighted }: { container: RefObject<HTMLElement | null>; links: readonly NeedLink[]; highlighted: { card: string | null; chain: ReadonlySet<string> } }) {
  const [drawn, setDrawn] = useState<Drawn[]>([]);
  const [size, setSize] = useState({ width: 0, height: 0 });

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const measure = () => {
      const origin = element.getBoundingClientRect();
      setSize({ width: element.scrollWidth, height: element.scrollHeight });
      setDrawn(
        links.flatMap((link) => {
          const from = cardOf(element, link.from);
          const to = cardOf(element, link.to);
          if (!from || !to) return [];
          return [{ key: `${link.from}\n${link.to}`, d: linkPath(from.getBoundingClientRect(), to.getBoundingClientRect(), origin), from: link.from, to: link.to }];
        }),
      );
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [container, links]);

  const inChain = (line: Drawn) => highlighted.card !== null && (line.from === highlighted.card || highlighted.chain.has(line.from)) && highlighted.chain.has(line.to);
  return (
    <svg className={styles.links} width={size.width} height={size.height} aria-hidden="true" data-testid="needs-links">
      {drawn.map((line) => (
        <path key={line.key} d={line.d} className={`${styles.link} ${inChain(line) ? styles.linkHighlighted : ''}`} data-from={line.from} data-to={line.to} data-highlighted={inChain(line) || undefined} />
      ))}
    </svg>
  );
}
