import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { textForSearch, withPage, withSearch } from '../lib/list-search';
import { pageFromSearch } from '../lib/pagination';
import { useDebouncedValue } from './useDebouncedValue';

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

  // A new object per edit, so each one settles as news even when its text repeats an
  // earlier one (typing `foo` again just after Back from `?search=foo`).
  const [draft, setDraft] = useState(() => ({ text: search }));
  // Follow the URL while rendering (React's "adjusting state when a prop changes"), not in an effect.
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    const text = textForSearch(draft.text, search);
    if (text !== draft.text) setDraft({ text });
  }

  const settled = useDebouncedValue(draft, SEARCH_DEBOUNCE_MS);
  // Only a newly settled edit is news: `search` is read, not watched, so a URL change (the box
  // already following it) never re-sends the text it replaced.
  useEffect(() => {
    if (settled.text.trim() === search) return;
    setParams((current) => withSearch(current, settled.text), { replace: true });
  }, [settled]);

  function setSearchInput(text: string) {
    setDraft({ text });
  }

  function setPage(next: number) {
    setParams((current) => withPage(current, next));
    window.scrollTo({ top: 0 });
  }

  return { search, page, searchInput: draft.text, setSearchInput, setPage };
}
