import { describe, expect, it } from 'vitest';
import { GROUP_NAME_FORMAT_MESSAGE, groupNameError } from './namespace.js';

describe('groupNameError (GitLab\'s group name rule)', () => {
  it.each([
    ['Platform team', null],
    ['_internal', null],
    ['9 lives', null],
    ['🚀 Rockets', null],
    ['Zürich (ops)', null],
    ['web.dev-tools+ci', null],
    ['Équipe', null],
    ['', "can't be blank"],
    ['   ', "can't be blank"],
    ['-dash first', GROUP_NAME_FORMAT_MESSAGE],
    ['.dot first', GROUP_NAME_FORMAT_MESSAGE],
    ['(paren first)', GROUP_NAME_FORMAT_MESSAGE],
    ['slash/inside', GROUP_NAME_FORMAT_MESSAGE],
    ['<script>', GROUP_NAME_FORMAT_MESSAGE],
    ['semi;colon', GROUP_NAME_FORMAT_MESSAGE],
    ['x'.repeat(256), 'is too long (maximum is 255 characters)'],
  ])('%j → %j', (name, expected) => {
    expect(groupNameError(name)).toBe(expected);
  });
});
