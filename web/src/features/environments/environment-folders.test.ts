import { describe, expect, it } from 'vitest';
import { inFolders, nameInFolder } from './environment-folders';

const env = (name: string) => ({ name });

describe('inFolders', () => {
  it('groups environments sharing the part before the first slash, in list order', () => {
    const items = inFolders([env('production'), env('review/a'), env('staging'), env('review/b/c')]);
    expect(items).toEqual([
      { kind: 'environment', environment: env('production') },
      { kind: 'folder', name: 'review', environments: [env('review/a'), env('review/b/c')] },
      { kind: 'environment', environment: env('staging') },
    ]);
  });

  it('makes a folder of a single environment with a slash, and leaves a leading slash alone', () => {
    expect(inFolders([env('review/only')])).toEqual([{ kind: 'folder', name: 'review', environments: [env('review/only')] }]);
    expect(inFolders([env('/odd')])).toEqual([{ kind: 'environment', environment: env('/odd') }]);
  });
});

describe('nameInFolder', () => {
  it('drops the folder', () => {
    expect(nameInFolder('review/b/c')).toBe('b/c');
    expect(nameInFolder('production')).toBe('production');
  });
});
