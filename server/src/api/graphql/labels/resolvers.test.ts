import { describe, expect, it } from 'vitest';
import { labelIdsInput } from './resolvers.js';

describe('mergeRequestSetLabels operation modes', () => {
  it.each([
    [undefined, { labelIds: [1, 2] }],
    [null, { labelIds: [1, 2] }],
    ['REPLACE', { labelIds: [1, 2] }],
    ['APPEND', { addLabelIds: [1, 2] }],
    ['REMOVE', { removeLabelIds: [1, 2] }],
  ] as const)('%s → %j', (mode, expected) => expect(labelIdsInput([1, 2], mode)).toEqual(expected));
});
