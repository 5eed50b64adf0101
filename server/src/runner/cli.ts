import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { createRunner } from './runner.js';

export const RUNNER_USAGE = `Usage: tributary runner --url URL --token glrt-… [--concurrent N] [--builds-dir DIR] [--executor shell|docker] [--name NAME]

  The token may also come from TRIBUTARY_RUNNER_TOKEN (it then stays out of the process list).`;

/** `tributary runner …`: runs until SIGINT/SIGTERM, then stops its jobs cleanly. */
export async function runnerCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      concurrent: { type: 'string', default: '1' },
      'builds-dir': { type: 'string', default: './builds' },
      executor: { type: 'string', default: 'shell' },
      name: { type: 'string', default: hostname() },
    },
  });
  const token = values.token ?? process.env.TRIBUTARY_RUNNER_TOKEN;
  const concurrent = Number(values.concurrent);
  if (!values.url || !token || !Number.isInteger(concurrent) || concurrent < 1 || (values.executor !== 'shell' && values.executor !== 'docker')) {
    console.error(RUNNER_USAGE);
    return 2;
  }
  const runner = createRunner({ url: values.url, token, concurrent, buildsDir: values['builds-dir']!, executor: values.executor, name: values.name! });
  let stopping = false;
  const stop = () => {
    // a second signal (a terminal's Ctrl-C reaches every process of the group) changes nothing
    if (stopping) return;
    stopping = true;
    console.log(`${new Date().toISOString()} shutting down (jobs still running are stopped and reported)`);
    runner.stop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await runner.run();
  return 0;
}
