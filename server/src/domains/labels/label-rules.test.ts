import { describe, expect, it } from 'vitest';
import { exclusiveScopedLabels, labelColorError, labelReference, labelTitleError, normalizeColor, parseLabelList, scopeOf, splitScoped, textColorFor } from './label-rules.js';

describe('label colours', () => {
  it.each([
    ['#fff', '#fff'],
    ['#D9534F', '#D9534F'],
    [' #abc ', '#abc'],
    ['red', '#FF0000'],
    ['Red', '#FF0000'],
    ['#ffff', null],
    ['fff', null],
    ['#ggg', null],
    ['url(x)', null],
    ['red;background:url(x)', null],
  ])('normalizeColor(%j) is %j', (input, expected) => expect(normalizeColor(input)).toBe(expected));

  it.each([
    ['#FFFFFF', '#1F1E24'],
    ['#eee', '#1F1E24'],
    ['#d9534f', '#FFFFFF'],
    ['#000', '#FFFFFF'],
    ['not a colour', '#FFFFFF'],
  ])('text on %s is %s', (color, text) => expect(textColorFor(color)).toBe(text));

  it('says what GitLab says about a bad colour', () => expect(labelColorError('nope')?.body).toEqual({ color: ['must be a valid color code'] }));
});

describe('label titles', () => {
  it.each([
    ['bug', null],
    ['', { title: ["can't be blank"] }],
    ['a,b', { title: ['is invalid'] }],
    ['x'.repeat(256), { title: ['is too long (maximum is 255 characters)'] }],
  ])('labelTitleError(%j)', (title, body) => expect(labelTitleError(title)?.body ?? null).toEqual(body));

  it.each([
    ['bug', null],
    ['priority::high', 'priority'],
    ['a::b::c', 'a::b'],
    ['::x', null],
    ['x::', null],
  ])('scopeOf(%j) is %j', (title, scope) => expect(scopeOf(title)).toBe(scope));

  it('splits a scoped label into key and value', () => {
    expect(splitScoped('workflow::in review')).toEqual({ key: 'workflow', value: 'in review' });
    expect(splitScoped('bug')).toBeNull();
  });

  it('parses comma lists and arrays into unique trimmed titles', () => {
    expect(parseLabelList(['bug, feature', 'bug', ' ', 'ux'])).toEqual(['bug', 'feature', 'ux']);
    expect(parseLabelList(undefined)).toBeUndefined();
  });

  it.each([
    ['bug', '~bug'],
    ['needs review', '~"needs review"'],
    ['priority::high', '~"priority::high"'],
  ])('labelReference(%j) is %s', (title, ref) => expect(labelReference(title)).toBe(ref));
});

describe('one value per scope', () => {
  const bug = { id: 1, title: 'bug' };
  const high = { id: 2, title: 'priority::high' };
  const low = { id: 3, title: 'priority::low' };
  const ux = { id: 4, title: 'area::ux' };
  const api = { id: 5, title: 'area::api' };
  it.each([
    { name: 'adding a value replaces the scope’s other value', labels: [bug, high, low], added: [3], expected: [1, 3] },
    { name: 'plain labels are never removed', labels: [bug, high], added: [1], expected: [1, 2] },
    { name: 'of two added values of one scope, the last wins', labels: [high, low], added: [2, 3], expected: [3] },
    { name: 'scopes are independent', labels: [high, ux, low, api], added: [3, 5], expected: [3, 5] },
    { name: 'a scope nothing was added to keeps what it has', labels: [high, low, bug], added: [1], expected: [2, 3, 1] },
    { name: 'nested scopes are their own scope', labels: [{ id: 6, title: 'a::b::c' }, { id: 7, title: 'a::d' }], added: [7], expected: [6, 7] },
  ])('$name', ({ labels, added, expected }) => expect(exclusiveScopedLabels(labels, added).map((label) => label.id)).toEqual(expected));
});
