import { useCallback, useState } from 'react';

/** GitLab's "Group jobs by" choice: columns by stage, or by job dependencies with the `needs` lines drawn. */
export type GraphView = 'stage' | 'needs';

/**
 * The choice is remembered in this browser, under GitLab's own localStorage key and values
 * (`pipeline_graph_view_type`: `stage` or `layer`), so every pipeline page opens as it was left.
 */
export const GRAPH_VIEW_STORAGE_KEY = 'pipeline_graph_view_type';

/** The stored value as a view: `layer` is job dependencies, anything else (nothing, junk) the stages. */
export function graphViewOf(stored: string | null): GraphView {
  return stored === 'layer' ? 'needs' : 'stage';
}

function read(): GraphView {
  try {
    return graphViewOf(window.localStorage.getItem(GRAPH_VIEW_STORAGE_KEY));
  } catch {
    return 'stage';
  }
}

export function useGraphView(): [GraphView, (view: GraphView) => void] {
  const [view, setView] = useState<GraphView>(read);
  const change = useCallback((next: GraphView) => {
    setView(next);
    try {
      window.localStorage.setItem(GRAPH_VIEW_STORAGE_KEY, next === 'needs' ? 'layer' : 'stage');
    } catch {
      // Private browsing without storage: the choice lasts for this page only.
    }
  }, []);
  return [view, change];
}
