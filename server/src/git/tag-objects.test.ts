import { describe, expect, it } from 'vitest';
import { tagObjectText } from './tag-objects.js';

describe('tagObjectText', () => {
  const target = 'a'.repeat(40);
  it('writes the object, type, name, tagger and message git mktag reads', () => {
    expect(tagObjectText({ target, name: 'v1.0', tagger: { name: 'Ann', email: 'ann@example.com', date: new Date(1_700_000_000_000) }, message: 'First' })).toBe(
      `object ${target}\ntype commit\ntag v1.0\ntagger Ann <ann@example.com> 1700000000 +0000\n\nFirst\n`,
    );
  });
  it('keeps a tagger identity from breaking the header', () => {
    const text = tagObjectText({ target, name: 't', tagger: { name: 'Eve <evil>\ntype blob', email: 'e@x>', date: new Date(0) }, message: 'm\n' });
    expect(text.split('\n')[3]).toBe('tagger Eve eviltype blob <e@x> 0 +0000');
    expect(text.endsWith('\n\nm\n')).toBe(true);
  });
  it('refuses a target that is not an object id', () => {
    expect(() => tagObjectText({ target: '--help', name: 't', tagger: { name: 'a', email: 'b' }, message: 'm' })).toThrow();
  });
});
