import { describe, expect, it } from 'vitest';
import { hashPassword, useCheapPasswordHashesForTests, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  it('are salted scrypt hashes at N=2^15 that verify only the password they were made from', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterz', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', null)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'bcrypt$x')).toBe(false);
  });

  it('verify with the parameters stored in the hash, so the cheap ones of test servers change nothing else', async () => {
    const strong = await hashPassword('s3cret-password');
    useCheapPasswordHashesForTests();
    const cheap = await hashPassword('s3cret-password');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('s3cret-password', cheap)).toBe(true);
    expect(await verifyPassword('s3cret-passworD', cheap)).toBe(false);
    expect(await verifyPassword('s3cret-password', strong)).toBe(true);
  });
});
