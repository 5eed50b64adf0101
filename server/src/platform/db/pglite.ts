import { existsSync, mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { newSessionName, type Database, type NotificationHandler, type Queryable, type QueryResult } from './database.js';

/**
 * PostgreSQL zeroes its shared memory at every start, in WebAssembly: PGlite's
 * default 128 MB of shared buffers cost about 125 ms of each start. An
 * embedded install serves a small team, and the OS page cache sits below.
 * Zeroed means resident: 16 MB instead of 32 MB keeps an idle server's memory
 * under 250 MB (npm run bench: first-start-memory).
 */
export const SHARED_BUFFERS = '16MB';

/**
 * V8 compiles PGlite's 9 MB of WebAssembly with its baseline compiler and
 * re-compiles hot functions with the optimising one in the background. A
 * start runs much code once, so the default budget sends hundreds of
 * functions to the optimiser while the start still needs the cores: about
 * 100 ms of a 2-core start. Ten times the budget leaves start-up code alone;
 * code that stays hot (the executor under load) is still optimised.
 */
const WASM_TIERING_BUDGET = 18_000_000;

/** What the database thread (pglite-thread.mjs) is sent: each with an `id` its answer repeats. */
type Request =
  | { op: 'query'; text: string; params?: readonly unknown[]; transaction?: number }
  | { op: 'begin' }
  | { op: 'end'; transaction: number; commit: boolean }
  | { op: 'listen'; channel: string; listener: number }
  | { op: 'unlisten'; listener: number }
  | { op: 'close' };

interface ThreadError {
  message: string;
  name: string;
  /** PostgreSQL's fields: code, detail, constraint, … */
  fields: Record<string, string | number | boolean | null>;
}

type Message =
  | { op: 'failed'; error: ThreadError }
  | { op: 'notify'; listener: number; payload: string }
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: ThreadError };

/** An Error with the fields callers test (`code === '23505'`), as node-postgres and PGlite throw them. */
function rebuildError(error: ThreadError): Error {
  return Object.assign(new Error(error.message), error.fields, { name: error.name });
}

/** Next to this module in the sources; at the bundle's root in dist/ (server/build.mjs copies it). */
function threadScript(): URL {
  for (const candidate of ['./pglite-thread.mjs', '../pglite-thread.mjs']) {
    const url = new URL(candidate, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error(`pglite-thread.mjs is missing next to ${import.meta.url}`);
}

/**
 * Embedded PostgreSQL, on its own thread. PGlite runs PostgreSQL in
 * WebAssembly on the thread that opens it; on that thread its start-up
 * (about half a second) would hold up loading and building the server, and
 * every query would hold up HTTP. On a worker it starts while the server
 * loads, and queries run beside request handling. The handle is ready at
 * once: what is asked before PostgreSQL has started waits for it.
 *
 * One process owns the data directory (see platform/process-lock.ts). PGlite
 * runs one statement at a time and queues the rest, and a transaction holds
 * the connection until it ends, exactly as it did in-process: the thread runs
 * PGlite's own `query`, `transaction` and `listen`.
 */
export function openPglite(dir: string | undefined): Database {
  if (dir) mkdirSync(dir, { recursive: true });
  // PGlite's JavaScript loads on the thread only: the main thread has the server to load.
  const worker = new Worker(threadScript(), { workerData: { dataDir: dir, sharedBuffers: SHARED_BUFFERS, wasmTieringBudget: WASM_TIERING_BUDGET } });

  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<number, NotificationHandler>();
  let nextId = 1;
  let stopped: Error | undefined;
  // The thread keeps the process alive only while an answer is awaited, as a socket would.
  const settle = () => {
    if (pending.size === 0) worker.unref();
  };

  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(stopped);
    pending.clear();
  };
  worker.on('message', (message: Message) => {
    if ('op' in message) {
      if (message.op === 'failed') stop(rebuildError(message.error));
      else if (message.op === 'notify') listeners.get(message.listener)?.(message.payload);
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    settle();
    if (message.error) waiting?.reject(rebuildError(message.error));
    else waiting?.resolve(message.result);
  });
  worker.on('error', (error) => stop(new Error(`the embedded database stopped: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => stop(new Error(`the embedded database stopped (thread exit ${code})`)));

  function call<T>(request: Request): Promise<T> {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...request });
    });
  }

  const queryOn = (transaction?: number): Queryable => ({
    query: <T>(text: string, params?: readonly unknown[]) => call<QueryResult<T>>({ op: 'query', text, params, transaction }),
  });

  const base = queryOn();
  const sessionName = newSessionName();
  // Statements wait on the thread until PostgreSQL has started: this one is first, so it cannot
  // fail alone; if PGlite fails to start, every statement says why (the caller's first is migrate).
  void base.query(`SELECT set_config('application_name', $1, false)`, [sessionName]).catch(() => undefined);
  return {
    kind: 'pglite',
    sessionName,
    query: base.query,
    async transaction(fn) {
      const { transaction } = await call<{ transaction: number }>({ op: 'begin' });
      let result;
      try {
        result = await fn(queryOn(transaction));
      } catch (error) {
        // The caller's error is the one to report; a thread that cannot even roll back has stopped, and says so next time.
        await call({ op: 'end', transaction, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', transaction, commit: true });
      return result;
    },
    async listen(channel, handler) {
      // Named here, before asking: a notification may follow the thread's answer at once.
      const listener = nextId++;
      listeners.set(listener, handler);
      try {
        await call({ op: 'listen', channel, listener });
      } catch (error) {
        listeners.delete(listener);
        throw error;
      }
      return async () => {
        listeners.delete(listener);
        await call({ op: 'unlisten', listener });
      };
    },
    async close() {
      if (stopped) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await call({ op: 'close' });
      worker.ref(); // until the thread has closed the data directory and ended
      await exited;
    },
  };
}
