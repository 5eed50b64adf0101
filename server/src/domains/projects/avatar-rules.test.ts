import { describe, expect, it } from 'vitest';
import { AVATAR_FORMAT_MESSAGE, AVATAR_SIZE_MESSAGE, avatarCheck, avatarFilename } from './avatar-rules.js';

describe('avatarCheck (GitLab\'s avatar formats and 200 KiB limit)', () => {
  it.each([
    ['logo.png', 10, { contentType: 'image/png' }],
    ['photo.JPG', 10, { contentType: 'image/jpeg' }],
    ['icon.webp', 204_800, { contentType: 'image/webp' }],
    ['big.png', 204_801, { error: AVATAR_SIZE_MESSAGE }],
    ['vector.svg', 10, { error: AVATAR_FORMAT_MESSAGE }],
    ['page.html', 10, { error: AVATAR_FORMAT_MESSAGE }],
    ['noextension', 10, { error: AVATAR_FORMAT_MESSAGE }],
  ])('%s (%d bytes)', (name, size, expected) => expect(avatarCheck(name, size)).toEqual(expected));

  it.each([
    ['logo.png', 'logo.png'],
    ['../../etc/x.png', 'x.png'],
    ['my logo ü.png', 'my_logo__.png'],
    ['C:\\\\pics\\\\a.png', 'a.png'],
  ])('%s is stored as %s', (name, stored) => expect(avatarFilename(name)).toBe(stored));
});
