import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Protocol v2's answer to `info/refs?service=git-upload-pack` lists capabilities, not refs
 * (`version 2`, `agent=…`, `ls-refs=unborn`, `fetch=…`, `object-format=…`): it follows from the
 * git binary and the repository's own config, never from its refs or objects. Every v2 clone,
 * fetch and ls-remote asks for it first, and starting `git upload-pack` costs the server a fork
 * of its whole process (about 15 ms of blocked main thread at ~270 MB resident on a 2-core VM,
 * against ~2 ms from a small process). So the answer is kept per repository and `Git-Protocol`
 * value, and asked again whenever the repository's `config` file changed (its size or
 * modification time), which is where every setting that changes it lives for our repositories
 * (git's system and global config are off for the server's git: `process.ts`).
 *
 * Protocol v0/v1 advertisements list the refs and are never kept: the caller asks git each time.
 */
export interface CapabilityAdvertisementCache {
  /** The advertisement for `repoPath` under `protocol` (the Git-Protocol header, e.g. `version=2`). */
  get(repoPath: string, protocol: string): Promise<Buffer>;
}

export interface CapabilityAdvertisementDeps {
  /** Runs `git upload-pack --stateless-rpc --advertise-refs` with GIT_PROTOCOL=protocol. */
  advertise(repoPath: string, protocol: string): Promise<Buffer>;
  /** The repository config file's identity; defaults to fs.stat of `<repo>/config`. */
  configStamp?(repoPath: string): Promise<string>;
  /** Repositories remembered at most (least recently used go first). */
  maxEntries?: number;
}

/** Whether a Git-Protocol header asks for protocol v2 (whose upload-pack advertisement has no refs). Pure. */
export function isProtocolV2(protocol: string | undefined): protocol is string {
  return protocol !== undefined && protocol.split(':').includes('version=2');
}

async function configFileStamp(repoPath: string): Promise<string> {
  const info = await stat(join(repoPath, 'config'));
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

export function createCapabilityAdvertisementCache(deps: CapabilityAdvertisementDeps): CapabilityAdvertisementCache {
  const maxEntries = deps.maxEntries ?? 1000;
  const stampOf = deps.configStamp ?? configFileStamp;
  const entries = new Map<string, { stamp: string; body: Buffer }>();
  return {
    async get(repoPath, protocol) {
      const key = `${protocol}\0${repoPath}`;
      const stamp = await stampOf(repoPath);
      const kept = entries.get(key);
      if (kept && kept.stamp === stamp) {
        entries.delete(key);
        entries.set(key, kept); // most recently used last
        return kept.body;
      }
      const body = await deps.advertise(repoPath, protocol);
      // Keep it only if the config did not change while git read it.
      if ((await stampOf(repoPath)) === stamp) {
        entries.delete(key);
        entries.set(key, { stamp, body });
        while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      }
      return body;
    },
  };
}
