import { mkdtemp, readdir, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { createFilesystemObjectStore } from './filesystem-store.js';
import { InvalidObjectKeyError } from './object-store.js';
import { objectStoreContract } from './object-store-contract.js';

objectStoreContract('data directory', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-objects-'));
  return { store: await createFilesystemObjectStore(join(dir, 'objects')), close: () => rm(dir, { recursive: true, force: true }) };
});

describe('the data directory store', () => {
  it('never writes outside its root: not through ../ keys, nor through a symlink inside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-objects-'));
    try {
      const root = join(dir, 'objects');
      const store = await createFilesystemObjectStore(root);
      await mkdir(join(dir, 'outside'));
      await symlink(join(dir, 'outside'), join(root, 'link'));
      await expect(store.put('link/file', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.put('link/deeper/file', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await writeFile(join(dir, 'outside', 'secret'), 'secret');
      await expect(store.get('link/secret')).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.put('../outside/file', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(store.put('.tmp/file', Buffer.from('x'))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      expect(await readdir(join(dir, 'outside'))).toEqual(['secret']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes through a temporary file: a failed stream leaves the old object and no partial file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tributary-objects-'));
    try {
      const store = await createFilesystemObjectStore(join(dir, 'objects'));
      await store.put('job-logs/1.log', Buffer.from('complete log'));
      const failing = new Readable({
        read() {
          this.push(Buffer.from('partial '));
          this.destroy(new Error('runner went away'));
        },
      });
      await expect(store.put('job-logs/1.log', failing)).rejects.toThrow('runner went away');
      expect(await text(await store.get('job-logs/1.log'))).toBe('complete log');
      expect(await readdir(join(dir, 'objects', '.tmp'))).toEqual([]);
      expect((await store.list('')).map((o) => o.key)).toEqual(['job-logs/1.log']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
