import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import picomatch from 'picomatch';
import yauzl from 'yauzl';
import yazl from 'yazl';

/** Lists every file and symlink under `root` (relative paths with `/`), skipping `.git`. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (!prefix && entry.name === '.git') continue;
      if (entry.isDirectory()) await walk(join(dir, entry.name), path);
      else if (entry.isFile() || entry.isSymbolicLink()) out.push(path);
    }
  }
  await walk(root, '');
  return out.sort();
}

function normalizePattern(pattern: string): string | undefined {
  const trimmed = pattern.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
  // Only paths inside the project directory can be collected, as gitlab-runner does.
  if (trimmed === '' || isAbsolute(trimmed) || trimmed.split('/').includes('..')) return undefined;
  return trimmed;
}

/**
 * The files of an artifact or cache: those matching `paths` (a glob, a file, or a directory and
 * everything below it), plus the untracked ones when asked, minus those matching `exclude`.
 */
export function selectFiles(files: readonly string[], options: { paths?: readonly string[]; exclude?: readonly string[]; untracked?: readonly string[] }): string[] {
  const matcher = (patterns: readonly string[] | undefined) => {
    const valid = (patterns ?? []).map(normalizePattern).filter((p): p is string => p !== undefined);
    if (valid.length === 0) return () => false;
    const globs = valid.flatMap((p) => [p, `${p}/**`]);
    return picomatch(globs, { dot: true });
  };
  const included = matcher(options.paths);
  const excluded = matcher(options.exclude);
  const untracked = new Set(options.untracked ?? []);
  return files.filter((file) => (included(file) || untracked.has(file)) && !excluded(file));
}

/** Writes a zip of `files` (relative to `root`) to `target`; symlinks are stored as links, never followed. */
export async function writeZip(root: string, files: readonly string[], target: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const zip = new yazl.ZipFile();
  for (const file of files) {
    const path = join(root, file);
    const stats = await lstat(path);
    if (stats.isSymbolicLink()) continue;
    zip.addFile(path, file, { mode: stats.mode });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(target));
}

/**
 * Extracts a zip into `root`. Every entry must land inside `root` (no absolute names, no `..`,
 * no path through a symlink that leaves it): a "zip slip" entry fails the extraction.
 */
export async function extractZip(source: string, root: string): Promise<number> {
  const base = await realpath(root);
  const zip = await new Promise<yauzl.ZipFile>((ok, fail) => yauzl.open(source, { lazyEntries: true, strictFileNames: true }, (e, z) => (e ? fail(e) : ok(z))));
  let count = 0;
  try {
    await new Promise<void>((ok, fail) => {
      zip.on('error', fail);
      zip.on('end', () => ok());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const target = resolve(base, entry.fileName);
          if (!target.startsWith(base + sep) || entry.fileName.includes('\\')) throw new Error(`zip entry outside the directory: ${entry.fileName}`);
          // a directory on the way that is a symlink could point outside
          const parent = dirname(target);
          await mkdir(parent, { recursive: true });
          const real = await realpath(parent);
          if (real !== base && !real.startsWith(base + sep)) throw new Error(`zip entry outside the directory: ${entry.fileName}`);
          if (entry.fileName.endsWith('/')) {
            await mkdir(target, { recursive: true });
          } else {
            const stream = await new Promise<NodeJS.ReadableStream>((y, n) => zip.openReadStream(entry, (e, s) => (e ? n(e) : y(s))));
            const mode = (entry.externalFileAttributes >>> 16) & 0o777;
            await pipeline(stream, createWriteStream(target, { mode: mode & 0o100 ? 0o755 : 0o644 }));
            count++;
          }
          zip.readEntry();
        })().catch(fail);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return count;
}
