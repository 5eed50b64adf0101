import { useEffect, useState } from 'react';
import { textForSearch } from '../lib/list-search';
import { useDebouncedValue } from './useDebouncedValue';

/**
 * The text of a box that edits a value kept in the URL (a list's search or filter). The box
 * changes at once as the user types; `onSettle` hears the text once typing pauses for
 * `delayMs`. The URL is the truth: when `value` changes under the box (Back, Clear filters, a
 * link to the bare list) the box shows it, and that is not sent back.
 */
export function useSettledText(value: string, onSettle: (text: string) => void, delayMs: number): [string, (text: string) => void] {
  // A new object per edit, so each one settles as news even when its text repeats an earlier
  // one (typing `foo` again just after Back from `?search=foo`).
  const [draft, setDraft] = useState(() => ({ text: value }));
  // Follow the URL while rendering (React's "adjusting state when a prop changes"), not in an effect.
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    const text = textForSearch(draft.text, value);
    if (text !== draft.text) setDraft({ text });
  }

  const settled = useDebouncedValue(draft, delayMs);
  // Only a newly settled edit is news: `value` and `onSettle` are read, not watched, so a URL
  // change (the box already following it) never re-sends the text it replaced.
  useEffect(() => {
    if (settled.text.trim() !== value) onSettle(settled.text);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- only a newly settled edit is news (see above)
  }, [settled]);

  return [draft.text, (text: string) => setDraft({ text })];
}
