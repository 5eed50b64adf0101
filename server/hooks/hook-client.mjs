// Shared by the pre-receive and post-receive hooks: reads git's ref update
// lines from stdin and sends them to the Tributary process that started
// this receive-pack, over its owner-only admin socket.
import { request } from 'node:http';
import { spawnSync } from 'node:child_process';

const ZERO = /^0+$/;

export async function readUpdates(withAncestry) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [oldSha, newSha, ...rest] = line.split(' ');
      const ref = rest.join(' ');
      const update = { ref, oldSha, newSha };
      // A force push is an update whose new commit does not contain the old one. This runs
      // inside git's quarantine environment, where the pushed objects are visible.
      if (withAncestry && !ZERO.test(oldSha) && !ZERO.test(newSha)) {
        const result = spawnSync('git', ['merge-base', '--is-ancestor', oldSha, newSha], { stdio: 'ignore' });
        update.forced = result.status === 1;
      }
      return update;
    });
}

export function post(path, body) {
  const socketPath = process.env.TRIBUTARY_HOOK_SOCKET;
  const key = process.env.TRIBUTARY_HOOK_KEY;
  if (!socketPath || !key) return Promise.reject(new Error('not started by Tributary'));
  const payload = JSON.stringify({ ...body, key });
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}
