/**
 * Object reads without a process start each: a long-lived `git cat-file --batch` per
 * repository, fed one full object id per line. Starting git costs a fork of the whole server
 * process (libuv forks, then waits for the child's exec), which on a busy machine is most of
 * what a small read costs; a read from a running cat-file is a pipe round trip.
 *
 * - Only full object ids are written to git's stdin (assertObjectId): no revision syntax, no
 *   line breaks, so nothing a caller passes can become a second request or a search
 *   (`:/text`) in cat-file's input language. The process itself is started through
 *   command.ts, like every git process.
 * - Bounded: at most `maxProcesses` processes; the least recently used idle one is closed to
 *   make room, and with none idle a read falls back to a one-shot `cat-file --batch`.
 * - Each process ends (its stdin closed) after `idleMs` without a read.
 * - A process that dies or stops answering within `timeoutMs` is killed and dropped; the reads
 *   it still owed are sent once more to a fresh process, and fail (GitCommandError) only if
 *   that one fails too. A read that timed out fails with GitTimeoutError.
 * - Objects are immutable, so a long-lived reader cannot answer stale content; an object
 *   written after it started is found too (git looks for loose objects on each read and
 *   rescans the pack directory when an id is not in the packs it knows).
 * - Idle processes do not keep the server's event loop alive.
 */
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { assertObjectId, git } from './command.js';
import { GitCommandError, GitOutputTooLargeError, GitTimeoutError } from './errors.js';
import type { BatchObject } from './tree-format.js';
import { parseCatFileBatch } from './tree-format.js';

export interface ObjectReaderOptions {
  /** Most cat-file processes alive at once, over all repositories. */
  maxProcesses?: number;
  /** A process with nothing to read for this long is closed. */
  idleMs?: number;
  /** A read not answered within this long kills its process. */
  timeoutMs?: number;
  /** Objects larger than this are refused (GitOutputTooLargeError); their bytes are skipped. */
  maxObjectBytes?: number;
}

interface PendingRead {
  id: string;
  resolve(object: BatchObject | null): void;
  reject(error: Error): void;
  /** sent once more after its process died */
  retried: boolean;
  timer: NodeJS.Timeout | undefined;
}

const LF = 0x0a;

/** One `cat-file --batch` process and the reads it owes, answered in the order they were sent. */
class BatchProcess {
  private readonly child: ChildProcess;
  private readonly owed: PendingRead[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  /** bytes `buffered` must hold before the object at its start is complete (0: not waiting) */
  private awaiting = 0;
  private arriving: Buffer[] = [];
  private arrivingBytes = 0;
  /** bytes of the current object still to skip (too large to keep), plus its trailing LF */
  private skipping = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private stderr = '';
  ended = false;
  /** stdin closed: it answers what it owes and exits, and takes no more reads */
  closing = false;
  /** killed by closeAll: the reads it owed fail instead of being sent again */
  abandoned = false;
  lastUsed = Date.now();

  constructor(
    readonly repoPath: string,
    private readonly options: Required<ObjectReaderOptions>,
    private readonly onEnd: (process: BatchProcess, orphans: PendingRead[], failure: Error) => void,
  ) {
    // No deadline on the process itself: each read carries its own.
    this.child = git(repoPath).sub('cat-file').flag('--batch').timeout(0).spawnStream();
    this.child.stdout!.on('data', (chunk: Buffer) => this.receive(chunk));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (text: string) => {
      if (this.stderr.length < 4096) this.stderr += text;
    });
    this.child.stdin!.on('error', () => {}); // a dead process is reported by 'close'
    this.child.on('error', (error) => this.end(error));
    this.child.on('close', (code) => this.end(new GitCommandError('cat-file', code ?? 128, this.stderr || 'cat-file --batch ended', 'unknown')));
    this.setBusy(false);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get idle(): boolean {
    return this.owed.length === 0;
  }

  read(pending: PendingRead): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.lastUsed = Date.now();
    if (this.owed.length === 0) this.setBusy(true);
    this.owed.push(pending);
    pending.timer = setTimeout(() => this.timeOut(pending), this.options.timeoutMs);
    this.child.stdin!.write(`${pending.id}\n`);
  }

  /** Closes stdin: git answers what it was asked and exits. */
  close(): void {
    if (this.ended || this.closing) return;
    this.closing = true;
    this.child.stdin!.end();
  }

  kill(): void {
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      try {
        process.kill(-this.child.pid, 'SIGKILL');
      } catch {
        this.child.kill('SIGKILL');
      }
    }
  }

  private timeOut(pending: PendingRead): void {
    const index = this.owed.indexOf(pending);
    if (index === -1) return;
    this.owed.splice(index, 1);
    pending.reject(new GitTimeoutError('cat-file', this.options.timeoutMs));
    // The stream is no longer in step with the reads: end the process, the others are resent.
    this.kill();
    this.end(new GitTimeoutError('cat-file', this.options.timeoutMs));
  }

  private receive(chunk: Buffer): void {
    // A large object arrives in many chunks: gather them and join once it is complete, not per chunk.
    if (this.awaiting > 0) {
      this.arriving.push(chunk);
      this.arrivingBytes += chunk.length;
      if (this.buffered.length + this.arrivingBytes < this.awaiting) return;
      this.buffered = Buffer.concat([this.buffered, ...this.arriving]);
      this.arriving = [];
      this.arrivingBytes = 0;
      this.awaiting = 0;
    } else {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    }
    for (;;) {
      if (this.skipping > 0) {
        const skipped = Math.min(this.skipping, this.buffered.length);
        this.skipping -= skipped;
        this.buffered = this.buffered.subarray(skipped);
        if (this.skipping > 0) return;
      }
      const lineEnd = this.buffered.indexOf(LF);
      if (lineEnd === -1) return;
      const header = this.buffered.toString('latin1', 0, lineEnd).split(' ');
      const pending = this.owed[0];
      if (!pending) return this.protocolError(`unexpected output: ${header.join(' ')}`);
      if (header.length !== 3) {
        // `<id> missing`
        this.buffered = this.buffered.subarray(lineEnd + 1);
        this.settle(pending, null);
        continue;
      }
      const size = Number(header[2]);
      if (!Number.isSafeInteger(size) || size < 0) return this.protocolError(`bad header: ${header.join(' ')}`);
      if (size > this.options.maxObjectBytes) {
        this.buffered = this.buffered.subarray(lineEnd + 1);
        this.skipping = size + 1;
        this.settle(pending, new GitOutputTooLargeError('cat-file', this.options.maxObjectBytes));
        continue;
      }
      const end = lineEnd + 1 + size + 1;
      if (this.buffered.length < end) {
        this.awaiting = end;
        return;
      }
      const [object] = parseCatFileBatch(this.buffered.subarray(0, end));
      // Copy: the content must not pin the larger buffer it was read into.
      const content = Buffer.from(object!.content);
      this.buffered = this.buffered.subarray(end);
      this.settle(pending, { ...object!, content });
    }
  }

  private settle(pending: PendingRead, outcome: BatchObject | null | Error): void {
    this.owed.shift();
    clearTimeout(pending.timer);
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome);
    if (this.owed.length === 0) {
      this.setBusy(false);
      this.idleTimer = setTimeout(() => this.close(), this.options.idleMs);
      this.idleTimer.unref();
    }
  }

  private protocolError(message: string): void {
    this.kill();
    this.end(new GitCommandError('cat-file', 0, message, 'unknown'));
  }

  private end(failure: Error): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    const orphans = this.owed.splice(0);
    for (const pending of orphans) clearTimeout(pending.timer);
    this.onEnd(this, orphans, failure);
  }

  /** While reads are owed the process keeps the event loop alive; idle, it does not. */
  private setBusy(busy: boolean): void {
    const handles = [this.child.stdout, this.child.stdin, this.child.stderr] as unknown as Array<Socket | null>;
    if (busy) this.child.ref();
    else this.child.unref();
    for (const handle of handles) {
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
  }
}

export interface ObjectReader {
  /** The object with this full id, or null when the repository does not have it. */
  read(repoPath: string, id: string): Promise<BatchObject | null>;
  /** Several objects, in order; null for each one missing. */
  readMany(repoPath: string, ids: readonly string[]): Promise<Array<BatchObject | null>>;
  /** Processes alive now (for tests and diagnostics). */
  processCount(): number;
  /** Their process ids (for tests and diagnostics). */
  processIds(): number[];
  /** Ends every process; reads still owed fail. */
  closeAll(): void;
}

export function createObjectReader(options: ObjectReaderOptions = {}): ObjectReader {
  const settings: Required<ObjectReaderOptions> = {
    maxProcesses: options.maxProcesses ?? 16,
    idleMs: options.idleMs ?? 30_000,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxObjectBytes: options.maxObjectBytes ?? 64 * 1024 * 1024,
  };
  const processes = new Map<string, BatchProcess>();

  function onEnd(ended: BatchProcess, orphans: PendingRead[], failure: Error): void {
    if (processes.get(ended.repoPath) === ended) processes.delete(ended.repoPath);
    for (const pending of orphans) {
      if (pending.retried || ended.abandoned) pending.reject(failure);
      else {
        pending.retried = true;
        dispatch(ended.repoPath, pending);
      }
    }
  }

  /** The repository's process, started when missing; null when the pool is full of busy ones. */
  function processFor(repoPath: string): BatchProcess | null {
    const existing = processes.get(repoPath);
    if (existing && !existing.ended && !existing.closing) return existing;
    if (processes.size >= settings.maxProcesses) {
      let oldest: BatchProcess | undefined;
      for (const candidate of processes.values()) if (candidate.idle && (!oldest || candidate.lastUsed < oldest.lastUsed)) oldest = candidate;
      if (!oldest) return null;
      processes.delete(oldest.repoPath);
      oldest.close();
    }
    const started = new BatchProcess(repoPath, settings, onEnd);
    processes.set(repoPath, started);
    return started;
  }

  function dispatch(repoPath: string, pending: PendingRead): void {
    let target: BatchProcess | null;
    try {
      target = processFor(repoPath);
    } catch (error) {
      return pending.reject(error as Error);
    }
    if (target) return target.read(pending);
    // Every process is busy with another repository: read this one with a process of its own.
    git(repoPath)
      .sub('cat-file')
      .flag('--batch')
      .input(`${pending.id}\n`)
      .maxOutput(settings.maxObjectBytes + 4096)
      .run()
      .then((result) => pending.resolve(parseCatFileBatch(result.stdout)[0] ?? null), pending.reject);
  }

  function read(repoPath: string, id: string): Promise<BatchObject | null> {
    return new Promise((resolve, reject) => {
      assertObjectId(id); // a throw here rejects the promise
      dispatch(repoPath, { id, resolve, reject, retried: false, timer: undefined });
    });
  }

  return {
    read,
    readMany: (repoPath, ids) => Promise.all(ids.map((id) => read(repoPath, id))),
    processCount: () => processes.size,
    processIds: () => [...processes.values()].flatMap((process) => (process.pid === undefined ? [] : [process.pid])),
    closeAll() {
      for (const process of processes.values()) {
        process.abandoned = true;
        process.kill();
      }
      processes.clear();
    },
  };
}

/** The server's reader: one pool per process. */
export const objectReader: ObjectReader = createObjectReader();
