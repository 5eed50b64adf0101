import type { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it } from 'vitest';
import { measureAfterLayout, scrollAfterAttaching } from './window-virtualizer';

type WindowVirtualizer = Virtualizer<Window, Element>;

/** The parts of a virtualiser the two functions read, and a window whose scrolls are recorded. */
function fakeVirtualizer(sizes: Record<string, number> = {}) {
  const scrolls: Array<{ top?: number; left?: number; behavior?: string }> = [];
  const instance = {
    scrollOffset: 120,
    scrollElement: { scrollTo: (options: { top?: number }) => scrolls.push(options) },
    options: { horizontal: false, getItemKey: (index: number) => `row-${index}`, estimateSize: (index: number) => 100 + index },
    indexFromElement: (element: Element) => Number(element.getAttribute('data-index')),
    itemSizeCache: new Map(Object.entries(sizes)),
  };
  return { instance: instance as unknown as WindowVirtualizer, scrolls };
}

const row = (index: number) => ({ getAttribute: (name: string) => (name === 'data-index' ? String(index) : null) }) as unknown as Element;
const entry = (blockSize: number) => ({ borderBoxSize: [{ blockSize, inlineSize: 800 }] }) as unknown as ResizeObserverEntry;

describe('measureAfterLayout', () => {
  it('takes the height the ResizeObserver reports, rounded', () => {
    expect(measureAfterLayout(row(3), entry(240.6), fakeVirtualizer().instance)).toBe(241);
  });

  it('keeps a row being attached at its last measured height, without reading the page', () => {
    expect(measureAfterLayout(row(2), undefined, fakeVirtualizer({ 'row-2': 317 }).instance)).toBe(317);
  });

  it('starts a row never measured at its estimate', () => {
    expect(measureAfterLayout(row(5), undefined, fakeVirtualizer().instance)).toBe(105);
  });
});

describe('scrollAfterAttaching', () => {
  it('skips the write that puts the window where it already is, as the list attaches', () => {
    const { instance, scrolls } = fakeVirtualizer();
    const scrollTo = scrollAfterAttaching();
    scrollTo(120, {}, instance);
    expect(scrolls).toEqual([]);
  });

  it('passes every later write through, even to the same place', () => {
    const { instance, scrolls } = fakeVirtualizer();
    const scrollTo = scrollAfterAttaching();
    scrollTo(120, {}, instance);
    scrollTo(120, {}, instance);
    scrollTo(900, { behavior: 'smooth' }, instance);
    expect(scrolls.map((scroll) => scroll.top)).toEqual([120, 900]);
  });

  it('makes a first write that moves the window, or adjusts it', () => {
    const moved = fakeVirtualizer();
    scrollAfterAttaching()(400, {}, moved.instance);
    expect(moved.scrolls.map((scroll) => scroll.top)).toEqual([400]);
    const adjusted = fakeVirtualizer();
    scrollAfterAttaching()(120, { adjustments: 30 }, adjusted.instance);
    expect(adjusted.scrolls.map((scroll) => scroll.top)).toEqual([150]);
  });
});
