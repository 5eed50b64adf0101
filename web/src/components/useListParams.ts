import { useSearchParams } from 'react-router-dom';
import { withPage, withSearch } from '../lib/list-search';
import { pageFromSearch } from '../lib/pagination';
import { useSettledText } from './useSettledText';

/** How long typing pauses before the search is sent. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `?search=&page=` kept in the URL, so lists survive reloads and the back button.
 * The text box updates at once; the URL follows once typing pauses. The URL is the truth:
 * when it changes under the box (Back, a link to the bare list) the box shows it, and that
 * is not written back.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = pageFromSearch(params);

  const [searchInput, setSearchInput] = useSettledText(search, (text) => setParams((current) => withSearch(current, text), { replace: true }), SEARCH_DEBOUNCE_MS);

  function setPage(next: number) {
    setParams((current) => withPage(current, next));
    window.scrollTo({ top: 0 });
  }

  return { search, page, searchInput, setSearchInput, setPage };
}
