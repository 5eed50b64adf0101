import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Secrets never reach the log: tokens, passwords, cookies and CSRF tokens are
 * redacted wherever they appear in a logged request or object.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["private-token"]',
  'req.headers["job-token"]',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.private_token',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } });
}

/** Query strings may carry `private_token=`; strip secrets before a URL is logged. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:private_token|access_token|job_token|password)=)[^&]*/gi, '$1[REDACTED]');
}
