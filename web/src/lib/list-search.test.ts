import { describe, expect, it } from 'vitest';
import { textForSearch, withPage, withSearch } from './list-search';

describe('withSearch', () => {
  it.each([
    ['sets the trimmed search and drops the page', 'page=3&sort=name', '  api ', 'sort=name&search=api'],
    ['replaces an earlier search', 'search=old&page=2', 'new', 'search=new'],
    ['removes a blank search', 'search=old&page=2&sort=name', '   ', 'sort=name'],
    ['removes an empty search', 'search=old', '', ''],
  ])('%s', (_rule, current, search, expected) => {
    expect(withSearch(new URLSearchParams(current), search).toString()).toBe(expected);
  });

  it('leaves the given params untouched', () => {
    const current = new URLSearchParams('search=old&page=2');
    withSearch(current, 'new');
    expect(current.toString()).toBe('search=old&page=2');
  });
});

describe('withPage', () => {
  it.each([
    ['sets a later page, keeping the search', 'search=api', 2, 'search=api&page=2'],
    ['replaces the page', 'page=2&search=api', 5, 'page=5&search=api'],
    ['drops the page for page 1', 'search=api&page=4', 1, 'search=api'],
  ])('%s', (_rule, current, page, expected) => {
    expect(withPage(new URLSearchParams(current), page).toString()).toBe(expected);
  });
});

describe('textForSearch', () => {
  it.each([
    ['Back to the list without a search empties the box', 'foo', '', ''],
    ['Back to an earlier search shows it', 'bar', 'foo', 'foo'],
    ['a link to the bare list empties the box', 'foo', '', ''],
    ['the URL taking the typed text keeps it as typed, trailing space included', 'foo ', 'foo', 'foo '],
    ['the URL taking a blank box keeps the spaces', '  ', '', '  '],
  ])('%s', (_rule, text, search, expected) => {
    expect(textForSearch(text, search)).toBe(expected);
  });
});
