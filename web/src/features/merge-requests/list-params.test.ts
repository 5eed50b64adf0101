import { describe, expect, it } from 'vitest';
import { apiQuery, countQuery, listSearch, parseListParams } from './list-params';

describe('parseListParams', () => {
  it('defaults to open merge requests, newest first', () => {
    expect(parseListParams(new URLSearchParams())).toEqual({ state: 'opened', sort: 'created_date', page: 1, filters: {} });
  });

  it('reads GitLab-named filters and ignores unknown values', () => {
    const params = parseListParams(new URLSearchParams('state=merged&sort=title_asc&page=3&author_username=ada&draft=maybe&search=%20fix%20'));
    expect(params).toEqual({ state: 'merged', sort: 'title_asc', page: 3, filters: { author_username: 'ada', search: 'fix' } });
    expect(parseListParams(new URLSearchParams('state=weird&sort=toString')).state).toBe('opened');
    expect(parseListParams(new URLSearchParams('sort=toString')).sort).toBe('created_date');
  });

  it('round-trips through the URL, leaving defaults out', () => {
    const params = parseListParams(new URLSearchParams('state=all&reviewer_username=bob&draft=no&page=2'));
    expect(listSearch(params).toString()).toBe('state=all&reviewer_username=bob&draft=no&page=2');
    expect(listSearch({ ...params, state: 'opened', page: 1, filters: {} }).toString()).toBe('');
  });
});

describe('apiQuery and countQuery', () => {
  const params = parseListParams(new URLSearchParams('draft=yes&target_branch=main&sort=updated_asc&page=2'));

  it('maps sort and draft to GitLab parameters', () => {
    expect(apiQuery(params, 'opened')).toEqual({
      target_branch: 'main',
      state: 'opened',
      wip: 'yes',
      with_labels_details: true,
      order_by: 'updated_at',
      sort: 'asc',
      page: 2,
      per_page: 20,
    });
    expect(apiQuery(params, 'all').state).toBeUndefined();
  });

  it('counts with one item per page from the first page', () => {
    expect(countQuery(params, 'merged', { scope: 'assigned_to_me' })).toMatchObject({ scope: 'assigned_to_me', state: 'merged', page: 1, per_page: 1, wip: 'yes' });
  });

  it('keeps the label and milestone filters, and reads a Markdown label link’s label_name[]', () => {
    expect(parseListParams(new URLSearchParams('labels=bug&milestone=None')).filters).toEqual({ labels: 'bug', milestone: 'None' });
    expect(parseListParams(new URLSearchParams('label_name[]=needs+review')).filters).toEqual({ labels: 'needs review' });
    expect(apiQuery({ ...parseListParams(new URLSearchParams('labels=bug&milestone=v1')), page: 1 }, 'opened')).toMatchObject({ labels: 'bug', milestone: 'v1' });
  });
});
