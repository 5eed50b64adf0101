import { useCallback, useState } from 'react';
import type { DiffViewMode } from './diff-items';

/** Inline or side by side, remembered in this browser (GitLab keeps it in its `diff_view` cookie). */
const STORAGE_KEY = 'tributary.diff_view';

function read(): DiffViewMode {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'parallel' ? 'parallel' : 'inline';
  } catch {
    return 'inline';
  }
}

export function useDiffViewMode(): [DiffViewMode, (mode: DiffViewMode) => void] {
  const [mode, setMode] = useState<DiffViewMode>(read);
  const change = useCallback((next: DiffViewMode) => {
    setMode(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private browsing without storage: the choice lasts for this page only.
    }
  }, []);
  return [mode, change];
}
