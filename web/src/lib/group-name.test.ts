import { describe, expect, it } from 'vitest';
import { groupNameProblem } from './group-name';

describe('groupNameProblem (GitLab\'s group name form rules)', () => {
  it.each([
    ['Platform team', null],
    ['_internal (ops)', null],
    ['🚀 Rockets', null],
    ['Équipe.web-dev', null],
    ['', 'Please enter a group name.'],
    ['  ', 'Please enter a group name.'],
    ['-dash', 'Group name must start with a letter, digit, emoji, or underscore.'],
    ['(paren)', 'Group name must start with a letter, digit, emoji, or underscore.'],
    ['slash/inside', 'Group name can contain only letters, digits, dashes, spaces, dots, underscores, parenthesis, and emojis.'],
    ['semi;colon', 'Group name can contain only letters, digits, dashes, spaces, dots, underscores, parenthesis, and emojis.'],
  ])('%j → %j', (name, expected) => {
    expect(groupNameProblem(name)).toBe(expected);
  });
});
