import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { REDACTED_PATHS, redactUrl } from './logger.js';

describe('redactUrl', () => {
  it.each([
    ['/api/v4/version?private_token=abc&per_page=1', '/api/v4/version?private_token=[REDACTED]&per_page=1'],
    ['/api/v4/projects/1/variables/K?value=s3cret&filter[environment_scope]=production', '/api/v4/projects/1/variables/K?value=[REDACTED]&filter[environment_scope]=production'],
    ['/api/v4/projects/1/variables?key=K&value=s3cret', '/api/v4/projects/1/variables?key=K&value=[REDACTED]'],
    ['/api/v4/projects?search=value', '/api/v4/projects?search=value'],
    ['/api/v4/projects/1/merge_requests/2/approve?approval_password=s3cret&sha=abc', '/api/v4/projects/1/merge_requests/2/approve?approval_password=[REDACTED]&sha=abc'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('REDACTED_PATHS', () => {
  it('hides an approval password wherever a logged object carries one', () => {
    const lines: string[] = [];
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } }, { write: (line: string) => void lines.push(line) });
    logger.info({ body: { approval_password: 's3cret', sha: 'abc' } }, 'approve');
    expect(lines.join('')).not.toContain('s3cret');
    expect(JSON.parse(lines[0]!).body).toEqual({ approval_password: '[REDACTED]', sha: 'abc' });
  });
});
