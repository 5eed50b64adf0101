import { createContext, useContext, useEffect } from 'react';

/**
 * Pages that need the whole window (a diff) ask the app layout to drop its maximum width
 * while they are shown.
 */
export const WideLayoutContext = createContext<(wide: boolean) => void>(() => {});

export function useWideLayout(wide = true): void {
  const setWide = useContext(WideLayoutContext);
  useEffect(() => {
    setWide(wide);
    return () => setWide(false);
  }, [setWide, wide]);
}
