import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { pageFromSearch } from '../lib/pagination';

/** How long typing pauses before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `?search=&page=` kept in the URL, so lists survive reloads and the back button.
 * The text box updates at once; the query follows after a short pause.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = pageFromSearch(params);
  const [searchInput, setSearchInput] = useState(search);

  useEffect(() => {
    if (searchInput.trim() === search) return;
    const timer = window.setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (searchInput.trim()) next.set('search', searchInput.trim());
          else next.delete('search');
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchInput, search, setParams]);

  function setPage(next: number) {
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next > 1) updated.set('page', String(next));
      else updated.delete('page');
      return updated;
    });
    window.scrollTo({ top: 0 });
  }

  return { search, page, searchInput, setSearchInput, setPage };
}
