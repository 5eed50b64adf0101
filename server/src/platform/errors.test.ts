import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, nullIfNotFound } from './errors.js';

describe('nullIfNotFound', () => {
  it('answers null for a 404 and lets every other failure through', async () => {
    await expect(Promise.reject(new NotFoundError('Project')).catch(nullIfNotFound)).resolves.toBeNull();
    await expect(Promise.reject(new ForbiddenError()).catch(nullIfNotFound)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(Promise.reject(new Error('connection lost')).catch(nullIfNotFound)).rejects.toThrow('connection lost');
  });
});
