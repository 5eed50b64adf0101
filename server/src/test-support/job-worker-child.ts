/**
 * A worker in its own process, for lease tests (platform/queue.int.test.ts): it claims one job
 * of the queue named on the command line, prints `claimed <id>`, and holds it until a line
 * `finish` arrives on stdin; then it tries to finish the job and prints `finished`.
 *
 *   node --import tsx server/src/test-support/job-worker-child.ts <postgres url> <queue> <lease seconds>
 */
import { createInterface } from 'node:readline';
import { openPostgres } from '../platform/db/postgres.js';
import { createJobQueue, type UntypedJobs } from '../platform/queue.js';

const [url, queueName, lease] = process.argv.slice(2);
const db = await openPostgres(url!);
// A server keeps its LISTEN connection open for its whole life, so its session name stays listed.
await db.listen('tributary_jobs', () => undefined);
const queue = createJobQueue<UntypedJobs>({ db, logger: { error: () => undefined, warn: () => undefined }, timing: { leaseSeconds: Number(lease) } });
const lines = createInterface({ input: process.stdin });
const finish = new Promise<void>((resolve) => lines.on('line', (line) => line === 'finish' && resolve()));
queue.register(queueName!, async (_payload, job) => {
  process.stdout.write(`claimed ${job.id}\n`);
  await finish;
});
while (!(await queue.runOnce())) await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write('finished\n');
lines.close();
await db.close();
