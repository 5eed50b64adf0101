import { request } from 'node:http';

/**
 * Sends one JSON request to the admin socket of a running server, waiting
 * up to `waitMs` for a server that is still starting to open its socket.
 */
export async function callAdminSocket<T>(socketPath: string, method: string, path: string, body: unknown, waitMs = 30_000): Promise<{ status: number; body: T }> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await sendOnce<T>(socketPath, method, path, body);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ECONNREFUSED') || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

function sendOnce<T>(socketPath: string, method: string, path: string, body: unknown): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body ?? {});
    const req = request(
      { socketPath, method, path, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
