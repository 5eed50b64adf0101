// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { GRAPH_VIEW_STORAGE_KEY, graphViewOf, useGraphView } from './useGraphView';

describe('the pipeline graph’s "Group jobs by" choice', () => {
  beforeEach(() => window.localStorage.clear());

  it.each([
    ['layer', 'needs'],
    ['stage', 'stage'],
    [null, 'stage'],
    ['"layer"', 'stage'],
    ['junk', 'stage'],
  ] as const)('stored %s opens the %s view', (stored, view) => expect(graphViewOf(stored)).toBe(view));

  it('starts from what the browser remembers and remembers a change under GitLab’s key and values', () => {
    window.localStorage.setItem(GRAPH_VIEW_STORAGE_KEY, 'layer');
    const { result } = renderHook(() => useGraphView());
    expect(result.current[0]).toBe('needs');
    act(() => result.current[1]('stage'));
    expect(result.current[0]).toBe('stage');
    expect(window.localStorage.getItem('pipeline_graph_view_type')).toBe('stage');
    act(() => result.current[1]('needs'));
    expect(window.localStorage.getItem('pipeline_graph_view_type')).toBe('layer');
    expect(renderHook(() => useGraphView()).result.current[0]).toBe('needs');
  });
});
