import { useCallback, useEffect, useRef, useState } from 'react';
import type { DiffFile } from '../../lib/diff-file';

/** Keys typed into a field are not shortcuts nor scrolling. */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Keys that scroll the window. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/**
 * Calls `release` when the reader starts scrolling by themselves (wheel, touch, scroll keys,
 * the window's scroll bar), not when the page scrolls because a file was chosen.
 */
export function useReleaseOnUserScroll(active: boolean, release: () => void) {
  const releaseRef = useRef(release);
  releaseRef.current = release;
  useEffect(() => {
    if (!active) return;
    // Scrolling the file tree itself does not move the diff.
    const inTree = (target: EventTarget | null) => target instanceof Element && target.closest('[role="tree"]') !== null;
    const onInput = (event: Event) => {
      if (!inTree(event.target)) releaseRef.current();
    };
    const onKey = (event: KeyboardEvent) => {
      if (SCROLL_KEYS.has(event.key) && !isTyping(event.target)) onInput(event);
    };
    // A press on the scroll bar targets the root element.
    const onPointer = (event: PointerEvent) => {
      if (event.target === document.documentElement) releaseRef.current();
    };
    window.addEventListener('wheel', onInput, { passive: true });
    window.addEventListener('touchmove', onInput, { passive: true });
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('wheel', onInput);
      window.removeEventListener('touchmove', onInput);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [active]);
}

/**
 * The file the reader chose (in the tree, or with j/k). It stays the tree's current file
 * until the reader scrolls by themselves: the file at the top of the window is not the
 * chosen one when that file is near the end and cannot reach the top. A new comparison
 * (`resetKey`) forgets it.
 */
export function useChosenFile(resetKey: string): [DiffFile | null, (file: DiffFile) => void] {
  const [chosen, setChosen] = useState<DiffFile | null>(null);
  useReleaseOnUserScroll(chosen !== null, () => setChosen(null));
  useEffect(() => setChosen(null), [resetKey]);
  return [chosen, useCallback((file: DiffFile) => setChosen(file), [])];
}
