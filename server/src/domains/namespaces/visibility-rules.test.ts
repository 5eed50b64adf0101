import { describe, expect, it } from 'vitest';
import { groupVisibilityErrors, projectVisibilityErrors } from './visibility-rules.js';

describe('projectVisibilityErrors (never more visible than its group or its fork source)', () => {
  it.each([
    ['public in a personal namespace', 'public', { group: null, forkSource: null }, []],
    ['public in a public group', 'public', { group: 'public', forkSource: null }, []],
    ['internal in a private group', 'internal', { group: 'private', forkSource: null }, ['internal is not allowed in a private group.']],
    ['public fork of a private project', 'public', { group: null, forkSource: 'private' }, ['public is not allowed since the fork source project has lower visibility.']],
    ['internal fork of an internal project', 'internal', { group: null, forkSource: 'internal' }, []],
    ['private fork of a public project', 'private', { group: null, forkSource: 'public' }, []],
    [
      'public fork of an internal project in an internal group',
      'public',
      { group: 'internal', forkSource: 'internal' },
      ['public is not allowed in a internal group.', 'public is not allowed since the fork source project has lower visibility.'],
    ],
  ] as const)('%s', (_, level, around, expected) => {
    expect(projectVisibilityErrors(level, around)).toEqual(expected);
  });
});

describe('groupVisibilityErrors (never more visible than its parent, nor less than what it holds)', () => {
  const none = { parent: null, projects: [], subgroups: [] };
  it.each([
    ['a top-level group, empty', 'private', none, []],
    ['public under an internal parent', 'public', { ...none, parent: 'internal' }, ['public is not allowed since the parent group has a internal visibility.']],
    ['private holding a public project', 'private', { ...none, projects: ['private', 'public'] }, ['private is not allowed since this group contains projects with higher visibility.']],
    ['internal holding internal projects', 'internal', { ...none, projects: ['internal', 'private'] }, []],
    ['private holding an internal subgroup', 'private', { ...none, subgroups: ['internal'] }, ['private is not allowed since there are sub-groups with higher visibility.']],
    [
      'internal under a private parent holding a public project and subgroup',
      'internal',
      { parent: 'private', projects: ['public'], subgroups: ['public'] },
      [
        'internal is not allowed since the parent group has a private visibility.',
        'internal is not allowed since this group contains projects with higher visibility.',
        'internal is not allowed since there are sub-groups with higher visibility.',
      ],
    ],
  ] as const)('%s', (_, level, around, expected) => {
    expect(groupVisibilityErrors(level, around)).toEqual(expected);
  });
});
