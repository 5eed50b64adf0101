import { describe, expect, it } from 'vitest';

import { parseDuration } from './duration.js';

describe('ChronicDuration-style durations', () => {
  it.each([
    ['42', 42],
    [42, 42],
    ['10 seconds', 10],
    ['30 minutes', 1800],
    ['1 hour', 3600],
    ['3h 30m', 12600],
    ['3 mins 4 sec', 184],
    ['1 day', 86400],
    ['1 week', 604800],
    ['2 hrs and 5 min', 7500],
    ['soon', null],
    ['', null],
    ['5 parsecs', null],
  ])('%s is %s seconds', (input, expected) => {
    expect(parseDuration(input)).toBe(expected);
  });
});
