import { describe, expect, it } from 'vitest';
import { descriptionDiff, tokenize } from './description-diff.js';

const render = (before: string, after: string) => descriptionDiff(before, after).map((s) => (s.type === 'same' ? s.text : s.type === 'added' ? `{+${s.text}+}` : `[-${s.text}-]`)).join('');

describe('descriptionDiff', () => {
  it('marks changed words only', () => {
    expect(render('Fixes the login bug.', 'Fixes the signup bug.')).toBe('Fixes the [-login-]{+signup+} bug.');
  });

  it('shows additions and removals at the ends', () => {
    expect(render('', 'New text')).toBe('{+New text+}');
    expect(render('Old text', '')).toBe('[-Old text-]');
    expect(render('One', 'One\n\nTwo')).toBe('One{+\n\nTwo+}');
  });

  it('answers nothing but the text when nothing changed', () => {
    expect(descriptionDiff('same', 'same')).toEqual([{ type: 'same', text: 'same' }]);
  });

  it('keeps both texts whole when reassembled', () => {
    const before = '- [ ] task one\n- [x] task two\nSee !12.';
    const after = '- [x] task one\n- [x] task 2\nSee !13 and #4.';
    const segments = descriptionDiff(before, after);
    expect(segments.filter((s) => s.type !== 'added').map((s) => s.text).join('')).toBe(before);
    expect(segments.filter((s) => s.type !== 'removed').map((s) => s.text).join('')).toBe(after);
  });

  it('replaces the whole middle of huge texts instead of comparing word by word', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join(' ');
    const segments = descriptionDiff(before, after);
    expect(segments.map((s) => s.type)).toEqual(['removed', 'added']);
  });

  it('tokenizes words, spaces, line breaks and punctuation apart', () => {
    expect(tokenize('a  b,\nc')).toEqual(['a', '  ', 'b', ',', '\n', 'c']);
  });
});
