import { describe, expect, it } from 'vitest';
import { redactUrl } from './logger.js';

describe('redactUrl', () => {
  it.each([
    ['/api/v4/version?private_token=abc&per_page=1', '/api/v4/version?private_token=[REDACTED]&per_page=1'],
    ['/api/v4/projects/1/variables/K?value=s3cret&filter[environment_scope]=production', '/api/v4/projects/1/variables/K?value=[REDACTED]&filter[environment_scope]=production'],
    ['/api/v4/projects/1/variables?key=K&value=s3cret', '/api/v4/projects/1/variables?key=K&value=[REDACTED]'],
    ['/api/v4/projects?search=value', '/api/v4/projects?search=value'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
