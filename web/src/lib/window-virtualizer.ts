/**
 * Options for TanStack's window virtualiser that keep layout out of React's commit. Reading a
 * size or a position while React commits (as the virtualiser does by default when a row is
 * attached, and when it first scrolls the window) makes the browser lay out the whole page
 * inside that task; read after the browser's own layout, from a ResizeObserver, the same work
 * is one task shorter. On a merge request's first load that was the longest task.
 */
import { windowScroll, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';
import { useEffect, useState, type RefObject } from 'react';

type WindowVirtualizer = Virtualizer<Window, Element>;
type WindowScrollTo = VirtualizerOptions<Window, Element>['scrollToFn'];

/**
 * A row's height as its ResizeObserver reports it. As the row is attached (no observer entry
 * yet) it keeps its last height, or its estimate: the observer reports the real one right after
 * the browser's next layout.
 */
export function measureAfterLayout(element: Element, entry: ResizeObserverEntry | undefined, instance: WindowVirtualizer): number {
  const box = entry?.borderBoxSize[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/**
 * The virtualiser's scrolling of the window, without its first write: as it attaches, it scrolls
 * the window to where it read it to be, a no-op that still forces a layout (and, were the page
 * scrolled meanwhile, would undo that). Every later write (a jump, a link to a note) goes through.
 */
export function scrollAfterAttaching(): WindowScrollTo {
  let attached = false;
  return (offset, options, instance) => {
    const first = !attached;
    attached = true;
    if (first && !options.adjustments && offset === instance.scrollOffset) return;
    windowScroll(offset, options, instance);
  };
}

/**
 * The element's distance from the top of the page (the list's `scrollMargin`), read whenever the
 * page's size changes, first right after the first layout. Until then it is 0: the list counts
 * from the top of the page, which renders a row or two more at first, never fewer.
 */
export function usePageOffset(ref: RefObject<Element | null>): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const observer = new ResizeObserver(() => setOffset((ref.current?.getBoundingClientRect().top ?? 0) + window.scrollY));
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return offset;
}
