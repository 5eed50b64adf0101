// The embedded PostgreSQL's own thread (a worker_threads Worker started by pglite.ts).
//
// Plain JavaScript on purpose: the same file runs from the sources (tests, tsx) and from the
// bundle (server/build.mjs copies it next to dist/tributary.mjs) with no transform in between.
// The protocol it speaks is typed on the other side, in pglite.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { PGlite, types } from '@electric-sql/pglite';

const { dataDir, sharedBuffers, wasmTieringBudget } = workerData;
// Read when the WebAssembly module is compiled, so it is set before PGlite starts (see pglite.ts).
setFlagsFromString(`--wasm-tiering-budget=${wasmTieringBudget}`);

/** int8 ids and counts come back as JS numbers on both drivers (ids stay far below 2^53). */
const parsers = { [types.INT8]: (value) => Number(value) };

/** Thrown inside PGlite's transaction callback to roll back what the caller asked to roll back. */
const ROLLBACK = Symbol('rollback');

/** PostgreSQL's error fields (code, detail, constraint, …): structured clone keeps only the message. */
function describeError(error) {
  const fields = {};
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
    }
  }
  return { message: error instanceof Error ? error.message : String(error), name: error instanceof Error ? error.name : 'Error', fields };
}

const reply = (id, result) => parentPort.postMessage({ id, result });
const fail = (id, error) => parentPort.postMessage({ id, error: describeError(error) });

async function run(queryable, text, params) {
  const result = await queryable.query(text, params);
  // affectedRows is 0 for a SELECT; node-postgres' rowCount counts the rows returned then.
  return { rows: result.rows, rowCount: Math.max(result.rows.length, result.affectedRows ?? 0) };
}

let pg;
try {
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`];
  pg = await PGlite.create({ ...(dataDir ? { dataDir } : {}), parsers, startParams });
} catch (error) {
  parentPort.postMessage({ op: 'failed', error: describeError(error) });
  process.exit(1);
}

/** Open transactions by id: the caller's statements run on `tx` until it says commit or roll back. */
const transactions = new Map();
const unsubscribers = new Map();
let nextId = 1;

function begin(id) {
  const transactionId = nextId++;
  const record = { tx: undefined, finish: undefined, endId: undefined };
  pg.transaction(async (tx) => {
    record.tx = tx;
    const commit = await new Promise((resolve) => {
      record.finish = resolve;
      transactions.set(transactionId, record);
      reply(id, { transaction: transactionId });
    });
    if (!commit) throw ROLLBACK;
  }).then(
    () => reply(record.endId, {}),
    (error) => (record.endId === undefined ? fail(id, error) : error === ROLLBACK ? reply(record.endId, {}) : fail(record.endId, error)),
  ).finally(() => transactions.delete(transactionId));
}

async function handle(message) {
  const { id, op } = message;
  try {
    switch (op) {
      case 'query': {
        const on = message.transaction === undefined ? pg : transactions.get(message.transaction)?.tx;
        if (!on) throw new Error(`transaction ${message.transaction} is over`);
        return reply(id, await run(on, message.text, message.params));
      }
      case 'begin':
        return begin(id);
      case 'end': {
        const record = transactions.get(message.transaction);
        if (!record) throw new Error(`transaction ${message.transaction} is over`);
        record.endId = id;
        return record.finish(message.commit);
      }
      case 'listen': {
        const { listener } = message;
        unsubscribers.set(listener, await pg.listen(message.channel, (payload) => parentPort.postMessage({ op: 'notify', listener, payload })));
        return reply(id, {});
      }
      case 'unlisten': {
        const unsubscribe = unsubscribers.get(message.listener);
        unsubscribers.delete(message.listener);
        if (unsubscribe) await unsubscribe();
        return reply(id, {});
      }
      case 'close':
        await pg.close();
        reply(id, {});
        return parentPort.close();
      default:
        throw new Error(`unknown operation ${op}`);
    }
  } catch (error) {
    fail(id, error);
  }
}

// Requests sent while PostgreSQL was starting wait in the port until now.
parentPort.on('message', (message) => void handle(message));
