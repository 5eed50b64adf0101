import { describe, expect, it } from 'vitest';
import { existingPaths, exposedArtifactsEtag, exposedArtifactUrl, exposureOf } from './exposed-artifacts.js';

const file = (path: string) => ({ path, directory: false });
const dir = (path: string) => ({ path, directory: true });
const ENTRIES = [dir('public'), file('public/index.html'), file('public/css/site.css'), file('report.txt'), file('implied/deep/a.txt')];

describe('existingPaths: the first two configured paths the archive holds', () => {
  it.each([
    ['one file', ['report.txt'], [{ path: 'report.txt', file: true }]],
    ['a directory, with or without its slash or ./', ['./public/'], [{ path: 'public', file: false }]],
    ['a directory the archive only implies', ['implied/deep'], [{ path: 'implied/deep', file: false }]],
    ['missing paths are passed over', ['missing.txt', 'report.txt'], [{ path: 'report.txt', file: true }]],
    ['no more than two', ['report.txt', 'public', 'implied'], [{ path: 'report.txt', file: true }, { path: 'public', file: false }]],
    ['a prefix of a name is not a directory', ['pub', 'report'], []],
    ['nothing', ['missing.txt'], []],
  ])('%s', (_name, paths, found) => {
    expect(existingPaths(ENTRIES, paths)).toEqual(found);
  });
});

describe('exposedArtifactUrl: the file for one file, the browser otherwise', () => {
  const urls = { file: (path: string) => `file:${path}`, browse: 'browse' };
  it.each([
    [[{ path: 'report.txt', file: true }], 'file:report.txt'],
    [[{ path: 'public', file: false }], 'browse'],
    [[{ path: 'report.txt', file: true }, { path: 'other.txt', file: true }], 'browse'],
  ])('%j → %s', (found, url) => {
    expect(exposedArtifactUrl(found, urls)).toBe(url);
  });
});

describe('exposureOf', () => {
  it.each([
    [{ artifacts: { expose_as: 'Report', paths: ['a.txt'] } }, { exposeAs: 'Report', paths: ['a.txt'] }],
    [{ artifacts: { paths: ['a.txt'] } }, null],
    [{ artifacts: { expose_as: 'Report', paths: [] } }, null],
    [{}, null],
  ])('%j → %j', (options, exposure) => {
    expect(exposureOf({ options })).toEqual(exposure);
  });
});

describe('exposedArtifactsEtag', () => {
  const job = { id: 1, exposeAs: 'Report', paths: ['a.txt'], archive: { id: 5, size: 100 } };
  it('is stable for the same rows and changes with the pipeline, an upload or the configuration', () => {
    const tag = exposedArtifactsEtag(7, [job]);
    expect(tag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    expect(exposedArtifactsEtag(7, [job])).toBe(tag);
    for (const other of [exposedArtifactsEtag(8, [job]), exposedArtifactsEtag(7, [{ ...job, archive: { id: 6, size: 100 } }]), exposedArtifactsEtag(7, [{ ...job, archive: null }]), exposedArtifactsEtag(7, [{ ...job, exposeAs: 'Other' }])]) {
      expect(other).not.toBe(tag);
    }
  });
});
