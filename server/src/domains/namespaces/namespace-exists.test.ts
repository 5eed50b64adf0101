import { describe, expect, it } from 'vitest';
import { namespaceExistsAnswer } from './namespace-exists.js';

describe('namespaceExistsAnswer', () => {
  const takenOf = (names: string[]) => async (path: string) => names.includes(path.toLowerCase());
  it.each([
    ['free', [], { exists: false, suggests: [] }],
    ['team', ['team'], { exists: true, suggests: ['team1'] }],
    ['team', ['team', 'team1', 'team2'], { exists: true, suggests: ['team3'] }],
  ] as const)('%s with %j taken', async (path, taken, answer) => {
    expect(await namespaceExistsAnswer(path, takenOf([...taken]))).toEqual(answer);
  });
});
