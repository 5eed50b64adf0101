import { describe, expect, it } from 'vitest';
import { slugify } from './slugify';

describe('slugify', () => {
  it.each([
    ['My Project', 'my-project'],
    ['  Hello   World  ', 'hello-world'],
    ['Crème brûlée', 'creme-brulee'],
    ['api_v2.client', 'api_v2.client'],
    ['--leading and trailing--', 'leading-and-trailing'],
    ['.hidden', 'hidden'],
    ['repo.git', 'repo'],
    ['feed.atom', 'feed'],
    ['a / b \\ c', 'a-b-c'],
    ['日本語', ''],
    ['', ''],
  ])('%j → %j', (name, expected) => expect(slugify(name)).toBe(expected));
});
