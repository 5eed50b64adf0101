import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt parameters: N=2^15, r=8, p=1 (about 32 MiB and 50 ms per hash). */
const PARAMS = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/**
 * For test servers only (test-support/server.ts): N=2^10, 1 MiB and about 2 ms per hash. A test
 * run hashes and verifies thousands of passwords (every user created, every sign-in, every git
 * request authenticated with a password); at the real cost that was minutes of CPU. The format
 * and the code path stay the same: the parameters travel in each hash, so verifying never
 * depends on which were current when it was made.
 */
const TEST_PARAMS = { N: 1024, r: 8, p: 1, maxmem: PARAMS.maxmem } as const;
let params: typeof PARAMS | typeof TEST_PARAMS = PARAMS;

/** Makes new hashes in this process cheap to compute; never called outside the test harness. */
export function useCheapPasswordHashesForTests(): void {
  params = TEST_PARAMS;
}
const KEY_LENGTH = 32;
export const MINIMUM_PASSWORD_LENGTH = 8;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Format: `scrypt$N$r$p$salt$hash`, base64url, so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: PARAMS.maxmem });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password that satisfies the minimum length, for generated root passwords. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
