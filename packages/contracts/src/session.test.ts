import { describe, expect, it } from 'vitest';
import { parseSignInRequest } from './session.js';

describe('parseSignInRequest', () => {
  it.each([
    [{ login: 'root', password: 'secret' }, { login: 'root', password: 'secret' }],
    [{ login: 'root', password: 'secret', remember: true }, { login: 'root', password: 'secret' }],
    [{ login: '', password: 'secret' }, null],
    [{ login: 'root' }, null],
    [{ login: 'root', password: 42 }, null],
    [{ login: ['root'], password: 'secret' }, null],
    ['login=root&password=secret', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (body, expected) => {
    expect(parseSignInRequest(body)).toEqual(expected);
  });
});
