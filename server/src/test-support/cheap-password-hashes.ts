import { useCheapPasswordHashesForTests } from '../auth/passwords.js';

/**
 * Setup file of the integration and browser projects (vitest.config.ts): passwords hashed in the
 * test worker (users created, test servers' root) use scrypt at N=2^10 instead of 2^15, see
 * useCheapPasswordHashesForTests. Servers that tests start as child processes keep the real cost.
 */
useCheapPasswordHashesForTests();
