import { useCallback, useEffect, useState } from 'react';

/** localStorage that may be missing or full (private windows): failures only lose the draft. */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      if (value === '') window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, value);
    } catch {
      // a draft that cannot be kept is still in the field
    }
  },
};

/** A text kept in localStorage under `key` as it is typed, read back after a reload. */
export function useAutosave(key: string, initial = ''): [string, (value: string) => void, () => void] {
  const [value, setValue] = useState(() => storage.get(key) ?? initial);
  useEffect(() => {
    setValue(storage.get(key) ?? initial);
    // a new key (internal toggled, another thread) reads its own draft
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new key reads its draft; a new initial does not replace what was typed
  }, [key]);
  const update = useCallback(
    (next: string) => {
      setValue(next);
      storage.set(key, next);
    },
    [key],
  );
  const clear = useCallback(() => {
    setValue('');
    storage.set(key, '');
  }, [key]);
  return [value, update, clear];
}
