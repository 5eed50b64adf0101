import { useEffect } from 'react';
import { documentTitle, PRODUCT_NAME } from '../lib/document-title';

/**
 * Sets the tab's title while the page is shown. One page calls it once: routes name the pages
 * they know enough about, and pages whose title needs their data (a merge request) name themselves.
 */
export function useDocumentTitle(parts: readonly (string | null | undefined)[] | null): void {
  const title = parts ? documentTitle(parts) : null;
  useEffect(() => {
    if (title === null) return;
    document.title = title;
    // A page without a title of its own, shown next, does not keep this one's.
    return () => {
      document.title = PRODUCT_NAME;
    };
  }, [title]);
}
