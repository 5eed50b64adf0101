import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidObjectKeyError, ObjectNotFoundError, type ObjectStore } from './object-store.js';

/**
 * What every ObjectStore promises, run against each implementation (the data directory and a
 * real S3-protocol server) so that code written against one works on the other.
 */
export function objectStoreContract(name: string, open: () => Promise<{ store: ObjectStore; close: () => Promise<void> }>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close?.());

    const read = async (key: string, range?: { offset: number; length?: number }) => text(await store.get(key, range));

    it('puts a buffer and gets it back, with its size', async () => {
      await store.put('a/b/c.txt', Buffer.from('hello world'));
      expect(await read('a/b/c.txt')).toBe('hello world');
      expect(await store.head('a/b/c.txt')).toEqual({ size: 11 });
    });

    it('puts a stream', async () => {
      await store.put('streamed/one.log', Readable.from([Buffer.from('line 1\n'), Buffer.from('line 2\n')]));
      expect(await read('streamed/one.log')).toBe('line 1\nline 2\n');
    });

    it('puts a stream larger than one upload part whole', async () => {
      const piece = Buffer.alloc(1024 * 1024, 'x');
      const pieces = Array.from({ length: 9 }, (_, i) => Buffer.concat([piece, Buffer.from(String(i))]));
      await store.put('big/object.bin', Readable.from(pieces));
      const size = pieces.reduce((sum, p) => sum + p.length, 0);
      expect(await store.head('big/object.bin')).toEqual({ size });
      expect(await read('big/object.bin', { offset: size - 1 })).toBe('8');
      await store.delete('big/object.bin');
    });

    it('replaces an object whole', async () => {
      await store.put('replace/me', Buffer.from('first version, longer'));
      await store.put('replace/me', Buffer.from('second'));
      expect(await read('replace/me')).toBe('second');
    });

    it('reads byte ranges', async () => {
      await store.put('range/digits', Buffer.from('0123456789'));
      expect(await read('range/digits', { offset: 2, length: 3 })).toBe('234');
      expect(await read('range/digits', { offset: 7 })).toBe('789');
      expect(await read('range/digits', { offset: 0, length: 1 })).toBe('0');
      expect(await read('range/digits', { offset: 4, length: 0 })).toBe('');
      expect(await read('range/digits', { offset: 10 })).toBe('');
    });

    it('stores empty objects', async () => {
      await store.put('empty/object', Buffer.alloc(0));
      expect(await store.head('empty/object')).toEqual({ size: 0 });
      expect(await read('empty/object')).toBe('');
    });

    it('answers null and ObjectNotFoundError for missing objects; deleting one is fine', async () => {
      expect(await store.head('missing/object')).toBeNull();
      await expect(store.get('missing/object')).rejects.toBeInstanceOf(ObjectNotFoundError);
      await store.delete('missing/object');
    });

    it('lists by prefix in key order, and deletes by prefix', async () => {
      for (const key of ['logs/2/b.log', 'logs/1/a.log', 'logs/10/c.log', 'logsx/other', 'logs/1/z.log']) await store.put(key, Buffer.from(key));
      expect((await store.list('logs/')).map((o) => o.key)).toEqual(['logs/1/a.log', 'logs/1/z.log', 'logs/10/c.log', 'logs/2/b.log']);
      expect((await store.list('logs/1')).map((o) => o.key)).toEqual(['logs/1/a.log', 'logs/1/z.log', 'logs/10/c.log']);
      expect((await store.list('logs/1/')).map((o) => o.key)).toEqual(['logs/1/a.log', 'logs/1/z.log']);
      expect(await store.list('logs/1/a.log')).toEqual([{ key: 'logs/1/a.log', size: 12 }]);
      expect(await store.list('nothing/')).toEqual([]);
      expect(await store.deletePrefix('logs/1/')).toBe(2);
      expect((await store.list('logs')).map((o) => o.key)).toEqual(['logs/10/c.log', 'logs/2/b.log', 'logsx/other']);
      await store.delete('logs/2/b.log');
      expect(await store.head('logs/2/b.log')).toBeNull();
      expect(await store.deletePrefix('logs')).toBe(2);
      expect(await store.list('logs')).toEqual([]);
    });

    it('keeps keys with spaces, unicode and URL characters apart and intact', async () => {
      const keys = ['odd/with space.txt', 'odd/ünïcødé.txt', 'odd/plus+and&amp=?.txt', 'odd/percent%20.txt'];
      for (const key of keys) await store.put(key, Buffer.from(key));
      for (const key of keys) expect(await read(key)).toBe(key);
      expect((await store.list('odd/')).map((o) => o.key).sort()).toEqual([...keys].sort());
    });

    it('refuses keys that could leave the root', async () => {
      for (const key of ['../escape', 'a/../../escape', '/absolute', 'a//b', './a', 'a/./b', 'a\\..\\b', '', 'nul\0byte', 'a/..']) {
        await expect(store.put(key, Buffer.from('x')), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.get(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.head(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
        await expect(store.delete(key), JSON.stringify(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      }
      await expect(store.list('../')).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.deletePrefix('../')).rejects.toBeInstanceOf(InvalidObjectKeyError);
    });
  });
}
