import { describe, expect, it } from 'vitest';
import { buildStepScript, sectionEnd, sectionStart, shellQuote } from './script.js';
import { cacheFile, cacheKey } from './cache-key.js';
import { runsWhen } from './job.js';
import { formatDuration } from './job-runner.js';

describe('formatDuration', () => {
  it.each([[3600, '1h0m0s'], [600, '10m0s'], [5, '5s'], [3725, '1h2m5s']])('%d s → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('step script', () => {
  it('sets -eo pipefail, echoes each command in green before running it, skips blank lines', () => {
    const script = buildStepScript(['echo "hi"', '', "echo 'it''s'"], '/builds/a b');
    expect(script.split('\n')).toEqual([
      '#!/usr/bin/env bash',
      'set -eo pipefail',
      'set +o noclobber',
      "cd -- '/builds/a b'",
      "printf '%s\\n' '\x1b[32;1m$ echo \"hi\"\x1b[0;m'",
      'echo "hi"',
      "printf '%s\\n' '\x1b[32;1m$ echo '\\''it'\\'''\\''s'\\''\x1b[0;m'",
      "echo 'it''s'",
      '',
    ]);
  });

  it('quotes for bash so nothing expands', () => {
    expect(shellQuote("a'b$c")).toBe(`'a'\\''b$c'`);
  });

  it('writes GitLab’s section markers', () => {
    expect(sectionStart('step_script', 'Executing', 1_700_000_000_500)).toBe('section_start:1700000000:step_script\r\x1b[0K\x1b[32;1mExecuting\x1b[0;m\n');
    expect(sectionEnd('step_script', 1_700_000_000_000)).toBe('section_end:1700000000:step_script\r\x1b[0K\n');
  });
});

describe('when', () => {
  it.each([
    [undefined, false, true],
    [undefined, true, false],
    ['on_failure', true, true],
    ['on_failure', false, false],
    ['always', true, true],
    ['always', false, true],
  ] as const)('%s after failed=%s runs: %s', (when, failed, runs) => {
    expect(runsWhen(when, failed)).toBe(runs);
  });
});

describe('cache keys', () => {
  it('keeps plain keys and makes others safe and distinct', () => {
    expect(cacheKey('node-modules_v1.2')).toBe('node-modules_v1.2');
    expect(cacheKey(undefined)).toBe('default');
    expect(cacheKey('')).toBe('default');
    expect(cacheKey('../../etc')).toMatch(/^__\.\._etc-[0-9a-f]{12}$/);
    expect(cacheKey('a/b')).not.toBe(cacheKey('a_b'));
    expect(cacheFile('/b', 'group/proj', 'main')).toBe('/b/cache/group/proj/main.zip');
    expect(cacheFile('/b', 'g/../x', 'k')).toMatch(/^\/b\/cache\/g\/_-[0-9a-f]{12}\/x\/k\.zip$/);
  });
});
