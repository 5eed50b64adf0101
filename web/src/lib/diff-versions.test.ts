import { describe, expect, it } from 'vitest';
import { baseLabel, comparisonParams, numberVersions, resolveComparison, startCandidates, versionLabel, type DiffVersionEntity } from './diff-versions';

const version = (id: number, head: string): DiffVersionEntity => ({
  id,
  head_commit_sha: head,
  base_commit_sha: `base${id}`,
  start_commit_sha: `start${id}`,
  created_at: '2026-01-01T00:00:00Z',
  merge_request_id: 1,
  state: 'collected',
  real_size: '1',
});

// The API lists newest first; the order is not relied upon.
const versions = numberVersions([version(7, 'h1'), version(12, 'h3'), version(9, 'h2')]);

describe('numberVersions', () => {
  it('sorts newest first and numbers from the oldest', () => {
    expect(versions.map((v) => [v.id, v.number, v.latest])).toEqual([
      [12, 3, true],
      [9, 2, false],
      [7, 1, false],
    ]);
    expect(versions.map(versionLabel)).toEqual(['latest version', 'version 2', 'version 1']);
    expect(baseLabel('main')).toBe('main (base)');
  });
});

describe('resolveComparison', () => {
  it('shows the latest version against its merge base by default', () => {
    expect(resolveComparison(versions, { diffId: null, startSha: null })).toMatchObject({
      comparison: { kind: 'latest' },
      baseSha: 'base12',
      headSha: 'h3',
      fellBack: false,
    });
  });

  it('shows an older version against the base', () => {
    expect(resolveComparison(versions, { diffId: '9', startSha: null })).toMatchObject({ comparison: { kind: 'version' }, baseSha: 'base9', headSha: 'h2' });
  });

  it('compares two versions by their heads', () => {
    const resolved = resolveComparison(versions, { diffId: '12', startSha: 'h1' });
    expect(resolved).toMatchObject({ comparison: { kind: 'between' }, baseSha: 'h1', headSha: 'h3', fellBack: false });
  });

  it('falls back to the latest for an unknown version, and ignores a start that is not older', () => {
    expect(resolveComparison(versions, { diffId: '99', startSha: null })).toMatchObject({ comparison: { kind: 'latest' }, fellBack: true });
    expect(resolveComparison(versions, { diffId: '9', startSha: 'h3' })).toMatchObject({ comparison: { kind: 'version' }, fellBack: true });
  });

  it('is null before the first version exists', () => {
    expect(resolveComparison([], { diffId: null, startSha: null })).toBeNull();
  });
});

describe('choosing versions', () => {
  it('offers only older versions to compare with', () => {
    expect(startCandidates(versions, versions[1]!).map((v) => v.id)).toEqual([7]);
  });

  it('round-trips choices through URL parameters', () => {
    const [latest, middle, oldest] = versions as [typeof versions[0], typeof versions[0], typeof versions[0]];
    expect(comparisonParams(latest, null)).toEqual({});
    expect(comparisonParams(middle, null)).toEqual({ diff_id: '9' });
    const params = comparisonParams(latest, oldest);
    expect(params).toEqual({ diff_id: '12', start_sha: 'h1' });
    expect(resolveComparison(versions, { diffId: params.diff_id!, startSha: params.start_sha! })?.comparison.kind).toBe('between');
    expect(comparisonParams(oldest, latest)).toEqual({ diff_id: '7' });
  });
});
