import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { Button, Pagination, Stack } from '@primer/react';
import type { PageInfo } from '../lib/pagination';

/**
 * Page links for a GitLab list. With X-Total-Pages it shows numbered pages;
 * without it (GitLab omits totals for large lists, and for commits) Previous/Next.
 */
export function PaginationNav({ pageInfo, onPageChange }: { pageInfo: PageInfo; onPageChange: (page: number) => void }) {
  const { page, totalPages, nextPage, prevPage } = pageInfo;
  if (totalPages !== null) {
    if (totalPages <= 1) return null;
    return (
      <Pagination
        pageCount={totalPages}
        currentPage={page}
        onPageChange={(event, next) => {
          event.preventDefault();
          onPageChange(next);
        }}
      />
    );
  }
  if (!nextPage && !prevPage) return null;
  return (
    <nav aria-label="Pagination">
      <Stack direction="horizontal" justify="center" gap="condensed" padding="normal">
        <Button leadingVisual={ChevronLeftIcon} disabled={!prevPage} onClick={() => prevPage && onPageChange(prevPage)}>
          Previous
        </Button>
        <Button trailingVisual={ChevronRightIcon} disabled={!nextPage} onClick={() => nextPage && onPageChange(nextPage)}>
          Next
        </Button>
      </Stack>
    </nav>
  );
}
