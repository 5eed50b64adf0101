import { describe, expect, it } from 'vitest';
import type { Label } from '../labels/labels.repository.js';
import { nextLabels } from './merge-request-metadata.js';

const label = (id: number, title: string) => ({ id, title }) as Label;
const bug = label(1, 'bug');
const high = label(2, 'priority::high');
const low = label(3, 'priority::low');
const ux = label(4, 'ux');

describe('nextLabels', () => {
  it.each([
    { name: 'add keeps what is there', current: [bug], replaced: undefined, added: [ux], remove: undefined, expected: [1, 4] },
    { name: 'labels replaces everything', current: [bug, high], replaced: [ux], added: [], remove: undefined, expected: [4] },
    { name: 'remove takes titles away', current: [bug, ux], replaced: undefined, added: [], remove: ['bug', 'nothing'], expected: [4] },
    { name: 'adding a scoped value drops the scope’s other value', current: [bug, high], replaced: undefined, added: [low], remove: undefined, expected: [1, 3] },
    { name: 'a replacing list with two values of a scope keeps the last new one', current: [], replaced: [high, low], added: [], remove: undefined, expected: [3] },
    { name: 'a value already there is not re-added', current: [high], replaced: undefined, added: [high], remove: undefined, expected: [2] },
  ])('$name', ({ current, replaced, added, remove, expected }) => {
    expect(nextLabels(current, replaced, added, remove).map((l) => l.id)).toEqual(expected);
  });

  it('removes by id as well as by title', () => {
    expect(nextLabels([bug, ux, high], undefined, [low], undefined, [4, 99]).map((l) => l.id)).toEqual([1, 3]);
  });
});
