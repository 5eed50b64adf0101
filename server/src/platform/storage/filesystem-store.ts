import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey, assertObjectPrefix, InvalidObjectKeyError, ObjectNotFoundError, type ByteRange, type ObjectInfo, type ObjectStore } from './object-store.js';

/** Temporary files are written here, beside the objects, so that the final rename stays on one filesystem. */
const TEMP_DIR = '.tmp';

/**
 * Objects as files under `root` (by default `<dataDir>/objects`). A write goes to a temporary
 * file that is renamed into place, so a reader or a crash never sees half an object. Every path
 * is checked to stay inside the root after symlinks are resolved.
 */
export async function createFilesystemObjectStore(rootDir: string): Promise<ObjectStore> {
  await mkdir(join(rootDir, TEMP_DIR), { recursive: true });
  const root = await realpath(rootDir);

  const inside = (path: string) => path === root || path.startsWith(root + sep);

  /** The file of a key, refused when it (or its existing parent, symlinks resolved) would be outside the root. */
  async function pathOf(key: string): Promise<string> {
    assertObjectKey(key);
    if (key === TEMP_DIR || key.startsWith(`${TEMP_DIR}/`)) throw new InvalidObjectKeyError(key);
    const path = join(root, key);
    if (!inside(path)) throw new InvalidObjectKeyError(key);
    let parent = dirname(path);
    // the nearest existing ancestor, with its symlinks resolved, must be inside the root
    for (;;) {
      try {
        if (!inside(await realpath(parent))) throw new InvalidObjectKeyError(key);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        parent = dirname(parent);
      }
    }
    return path;
  }

  async function isFile(path: string): Promise<boolean> {
    try {
      return (await lstat(path)).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
      throw error;
    }
  }

  /** Every file below `dir`, as keys, without following symlinks. */
  async function walk(dir: string, out: ObjectInfo[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (path !== join(root, TEMP_DIR)) await walk(path, out);
      } else if (entry.isFile()) {
        out.push({ key: relative(root, path).split(sep).join('/'), size: (await stat(path)).size });
      }
    }
  }

  /** Removes the empty directories from `dir` up to (not including) the root. */
  async function pruneEmpty(dir: string): Promise<void> {
    while (dir !== root && inside(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }

  async function list(prefix: string): Promise<ObjectInfo[]> {
    assertObjectPrefix(prefix);
    // walk from the deepest directory the prefix names in full
    const slash = prefix.lastIndexOf('/');
    const out: ObjectInfo[] = [];
    await walk(slash === -1 ? root : join(root, prefix.slice(0, slash)), out);
    return out.filter((object) => object.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  return {
    kind: 'filesystem',

    async put(key, body) {
      const path = await pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temp = join(root, TEMP_DIR, `${randomBytes(12).toString('hex')}.part`);
      try {
        if (Buffer.isBuffer(body)) await writeFile(temp, body, { flag: 'wx' });
        else await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },

    async get(key, range?: ByteRange) {
      const path = await pathOf(key);
      if (!(await isFile(path))) throw new ObjectNotFoundError(key);
      const start = range?.offset ?? 0;
      if (range?.length === 0) return Readable.from([]);
      const end = range?.length !== undefined ? start + range.length - 1 : undefined;
      return createReadStream(path, { start, end });
    },

    async head(key) {
      const path = await pathOf(key);
      if (!(await isFile(path))) return null;
      return { size: (await stat(path)).size };
    },

    async delete(key) {
      const path = await pathOf(key);
      try {
        await unlink(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      await pruneEmpty(dirname(path));
    },

    async deletePrefix(prefix) {
      const objects = await list(prefix);
      for (const object of objects) {
        const path = join(root, object.key);
        await unlink(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        await pruneEmpty(dirname(path));
      }
      return objects.length;
    },

    list,
  };
}
