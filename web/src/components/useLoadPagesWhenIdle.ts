import { useEffect } from 'react';
import { whenIdle } from '../lib/idle';

/** The next page is asked for in an idle period, or after this at the latest. */
const NEXT_PAGE_IDLE_TIMEOUT_MS = 500;

/** What the hook reads of a TanStack infinite query. */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isError: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * Loads every page of an infinite query one after another, asking for each in the browser's
 * next idle period, once the previous page has rendered. Asked for at once, the server's work on
 * the next page, the browser's work on the last one and the page's other answers all compete for
 * the same cores, and the reader's tasks run long: in the Activity benchmark (2,000 threads, 12
 * visits each) the 75th percentile of each visit's longest task while the threads loaded was
 * 95–111 ms this way, 130–153 ms asking at once (bench/README.md).
 */
export function useLoadPagesWhenIdle({ hasNextPage, isFetchingNextPage, isError, fetchNextPage }: PagedQuery): void {
  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || isError) return;
    return whenIdle(() => void fetchNextPage(), NEXT_PAGE_IDLE_TIMEOUT_MS);
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
}
