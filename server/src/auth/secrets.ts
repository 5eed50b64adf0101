import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Personal access tokens look like GitLab's (`glpat-…`) so secret scanners recognise them. */
export const TOKEN_PREFIX = 'glpat-';

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(20).toString('base64url');
}

export function generateOpaqueSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens and session ids are high-entropy, so a plain SHA-256 is the right digest. */
export function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two secrets. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
