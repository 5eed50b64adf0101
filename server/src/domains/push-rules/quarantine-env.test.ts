import { describe, expect, it } from 'vitest';
import { quarantineEnv } from './push-rules.service.js';

/** The hook reports git's quarantine; only directories inside the project's repository are used. */
describe('quarantineEnv', () => {
  const repo = '/data/repositories/1.git';
  it.each([
    [{ GIT_OBJECT_DIRECTORY: `${repo}/objects/tmp_objdir-incoming-x` }, { GIT_OBJECT_DIRECTORY: `${repo}/objects/tmp_objdir-incoming-x` }],
    [{ GIT_ALTERNATE_OBJECT_DIRECTORIES: `${repo}/objects:${repo}/objects/tmp` }, { GIT_ALTERNATE_OBJECT_DIRECTORIES: `${repo}/objects:${repo}/objects/tmp` }],
    [{ GIT_OBJECT_DIRECTORY: '/data/repositories/2.git/objects' }, {}],
    [{ GIT_OBJECT_DIRECTORY: `${repo}/../2.git/objects` }, {}],
    [{ GIT_ALTERNATE_OBJECT_DIRECTORIES: `${repo}/objects:/etc` }, {}],
    [{ GIT_OBJECT_DIRECTORY: `${repo}-other/objects` }, {}],
    [{ PATH: '/bin', GIT_DIR: '/etc' }, {}],
    ['not an object', {}],
    [null, {}],
  ])('%j → %j', (reported, expected) => {
    expect(quarantineEnv(repo, reported)).toEqual(expected);
  });
});
