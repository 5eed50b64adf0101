import { describe, expect, it } from 'vitest';
import { createKeyedLock } from './keyed-lock.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createKeyedLock', () => {
  it('runs holders of one key one at a time, in arrival order', async () => {
    const lock = createKeyedLock();
    const events: string[] = [];
    const hold = (name: string) =>
      lock('main', async () => {
        events.push(`${name} in`);
        await tick();
        events.push(`${name} out`);
        return name;
      });
    expect(await Promise.all([hold('a'), hold('b'), hold('c')])).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('lets different keys run at once', async () => {
    const lock = createKeyedLock();
    const events: string[] = [];
    await Promise.all(
      ['x', 'y'].map((key) =>
        lock(key, async () => {
          events.push(`${key} in`);
          await tick();
          events.push(`${key} out`);
        }),
      ),
    );
    expect(events.slice(0, 2).sort()).toEqual(['x in', 'y in']);
  });

  it('releases the key when the holder throws', async () => {
    const lock = createKeyedLock();
    await expect(lock('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock('k', async () => 'next')).toBe('next');
  });
});
