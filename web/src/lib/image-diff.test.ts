import { describe, expect, it } from 'vitest';
import { fitWithin, imageChange, imageViewModes, nudgeSwipe, opacityFromSlider, overlayFrame, SWIPE_EXTRA_PX, swipePosition } from './image-diff';

describe('imageChange and its views', () => {
  it.each([
    [{ newFile: true, deletedFile: false, renamedFile: false }, 'new'],
    [{ newFile: false, deletedFile: true, renamedFile: false }, 'deleted'],
    [{ newFile: false, deletedFile: false, renamedFile: true }, 'renamed'],
    [{ newFile: false, deletedFile: false, renamedFile: false }, 'replaced'],
  ] as const)('%j is %s', (file, change) => expect(imageChange(file)).toBe(change));

  it('offers 2-up, swipe and onion skin only for a replaced image', () => {
    expect(imageViewModes('replaced')).toEqual(['twoup', 'swipe', 'onion']);
    expect(imageViewModes('new')).toEqual([]);
  });
});

describe('geometry', () => {
  it('scales down to fit, never up', () => {
    expect(fitWithin({ width: 800, height: 400 }, 400)).toEqual({ width: 400, height: 200 });
    expect(fitWithin({ width: 100, height: 50 }, 400)).toEqual({ width: 100, height: 50 });
    expect(fitWithin({ width: 0, height: 50 }, 400)).toEqual({ width: 0, height: 0 });
  });

  it('frames two images at one scale, the swipe frame 2px wider', () => {
    expect(overlayFrame({ width: 100, height: 80 }, { width: 200, height: 40 }, 1000, SWIPE_EXTRA_PX)).toEqual({
      frame: { width: 202, height: 80 },
      before: { width: 100, height: 80 },
      after: { width: 200, height: 40 },
    });
    expect(overlayFrame({ width: 1000, height: 500 }, { width: 500, height: 500 }, 500)).toEqual({
      frame: { width: 500, height: 250 },
      before: { width: 500, height: 250 },
      after: { width: 250, height: 250 },
    });
  });

  it('keeps the swipe handle inside the frame', () => {
    expect(swipePosition(150, 100, 200)).toBe(50);
    expect(swipePosition(50, 100, 200)).toBe(0);
    expect(swipePosition(400, 100, 200)).toBe(200);
    expect(nudgeSwipe(195, 200, 1)).toBe(200);
    expect(nudgeSwipe(100, 200, -1)).toBe(80);
  });

  it('reads the onion skin slider as an opacity', () => {
    expect(opacityFromSlider(30)).toBe(0.3);
    expect(opacityFromSlider(140)).toBe(1);
    expect(opacityFromSlider(Number.NaN)).toBe(0.5);
  });
});
