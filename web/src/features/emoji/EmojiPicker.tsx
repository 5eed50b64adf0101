import { SearchIcon, SmileyIcon } from '@primer/octicons-react';
import { AnchoredOverlay, Spinner, TextInput } from '@primer/react';
import { t } from '@tributary/contracts';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { Emoji } from '../../components/Emoji';
import { OverlayButton } from '../../components/OverlayButton';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { emojiDataQuery } from './api';
import { CATEGORIES, type EmojiData } from './emoji-data';
import { readFrequentlyUsed, rememberFrequentlyUsed } from './frequently-used';
import { moveActive, pickerLayout, rowHeight, type ArrowKey, type PickerSection } from './picker-layout';
import { searchEmoji } from './search';
import styles from './Emoji.module.css';

/** The search waits 500 ms after the last key. */
export const EMOJI_SEARCH_DEBOUNCE_MS = 500;
/** GitLab's virtual list (size 258, bench 2): the list's height and rows kept beyond it. */
export const VIRTUAL_LIST_SIZE = 258;
export const VIRTUAL_LIST_BENCH = 2;
const FREQUENTLY_USED = 'frequently_used';
const SEARCH = 'search';
const ARROWS: ReadonlySet<string> = new Set<ArrowKey>(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

/** The "Add reaction" button and its dropdown: search, category tabs, a virtual list. */
export function EmojiPicker({ onPick }: { onPick: (name: string) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <OverlayButton icon={SmileyIcon} aria-label={t('Add reaction')} className={styles.addReaction}>
      {({ anchorRef, setOpen }) => (
        <AnchoredOverlay
          open
          anchorRef={anchorRef}
          renderAnchor={null}
          onClose={() => setOpen(false)}
          focusTrapSettings={{ initialFocusRef: inputRef }}
          focusZoneSettings={{ disabled: true }}
          overlayProps={{ role: 'dialog', 'aria-label': t('Add reaction') }}
        >
          <PickerPanel
            inputRef={inputRef}
            onPick={(name) => {
              rememberFrequentlyUsed(name);
              setOpen(false);
              onPick(name);
            }}
          />
        </AnchoredOverlay>
      )}
    </OverlayButton>
  );
}

function sectionsFor(data: EmojiData, search: string): PickerSection[] {
  const found = searchEmoji(data.list, search);
  if (found) return [{ key: SEARCH, title: t('Search results'), emojis: found }];
  const frequent = readFrequentlyUsed((name) => data.byName.has(name)).map((name) => data.byName.get(name)!);
  return [
    { key: FREQUENTLY_USED, title: t('Frequently used'), emojis: frequent },
    ...CATEGORIES.map((category) => ({ key: category.key, title: t(category.title), emojis: data.list.filter((emoji) => emoji.category === category.key) })),
  ];
}

function PickerPanel({ inputRef, onPick }: { inputRef: RefObject<HTMLInputElement | null>; onPick: (name: string) => void }) {
  const data = useQuery(emojiDataQuery());
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), EMOJI_SEARCH_DEBOUNCE_MS);
  const searching = search.replace(/^:|:$/g, '') !== '';
  const layout = useMemo(() => pickerLayout(data.data ? sectionsFor(data.data, search) : []), [data.data, search]);
  const [active, setActive] = useState(-1);
  const id = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: layout.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => rowHeight(layout.rows[index]!),
    overscan: VIRTUAL_LIST_BENCH,
  });

  // a new search starts at the top with nothing active
  useEffect(() => {
    setActive(-1);
    virtualizer.scrollToOffset(0);
  }, [layout, virtualizer]);

  // the tab of the category at the top of the list
  const sectionTops = useMemo(() => {
    const tops: { key: string; top: number }[] = [];
    let top = 0;
    layout.rows.forEach((row) => {
      if (row.kind === 'heading') tops.push({ key: row.key, top });
      top += rowHeight(row);
    });
    return tops;
  }, [layout]);
  const offset = virtualizer.scrollOffset ?? 0;
  const current = [...sectionTops].reverse().find((section) => section.top <= offset + 1)?.key ?? sectionTops[0]?.key;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (ARROWS.has(event.key)) {
      event.preventDefault();
      const next = moveActive(layout, active, event.key as ArrowKey);
      setActive(next);
      if (next >= 0) virtualizer.scrollToIndex(layout.rowOfCell[next]!, { align: 'auto' });
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // with nothing chosen yet, Enter takes the best match of a search
      const emoji = layout.cells[active] ?? (searching ? layout.cells[0] : undefined);
      if (emoji) onPick(emoji.name);
    }
  };

  const tabs = [{ key: FREQUENTLY_USED, title: t('Frequently used'), glyph: '🕘', glyphName: 'clock9' }, ...CATEGORIES.map((category) => ({ ...category, title: t(category.title) }))].filter((tab) =>
    layout.sectionRow.has(tab.key),
  );

  return (
    <div className={styles.picker}>
      <TextInput
        ref={inputRef}
        block
        leadingVisual={SearchIcon}
        placeholder={t('Search')}
        aria-label={t('Search emoji')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded="true"
        aria-controls={`${id}-list`}
        aria-activedescendant={active >= 0 ? `${id}-cell-${active}` : undefined}
      />
      {!searching && tabs.length > 0 ? (
        <div className={styles.tabs} role="toolbar" aria-label={t('Emoji categories')}>
          {tabs.map((tab) => (
            <button
              key={tab.key}
              type="button"
              className={styles.tab}
              aria-label={tab.title}
              title={tab.title}
              aria-current={tab.key === current ? 'true' : undefined}
              onClick={() => virtualizer.scrollToIndex(layout.sectionRow.get(tab.key)!, { align: 'start' })}
            >
              <Emoji name={tab.glyphName} unicode={tab.glyph} />
            </button>
          ))}
        </div>
      ) : null}
      <div ref={scrollRef} className={styles.scroller} style={{ height: VIRTUAL_LIST_SIZE }} id={`${id}-list`} role="listbox" aria-label={t('Emoji')}>
        {data.isPending ? (
          <div className={styles.pickerState}>
            <Spinner size="small" />
          </div>
        ) : data.isError ? (
          <p className={`fgMuted ${styles.pickerState}`}>{t('Something went wrong on our end.')}</p>
        ) : layout.cells.length === 0 ? (
          <p className={`fgMuted ${styles.pickerState}`} role="status">
            {t('No emoji found.')}
          </p>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = layout.rows[item.index]!;
              return (
                <div key={item.key} className={styles.row} role="presentation" style={{ height: item.size, transform: `translateY(${item.start}px)` }}>
                  {row.kind === 'heading' ? (
                    <div className={styles.heading}>{row.title}</div>
                  ) : (
                    row.emojis.map((emoji, column) => {
                      const index = row.first + column;
                      return (
                        <button
                          key={index}
                          id={`${id}-cell-${index}`}
                          type="button"
                          role="option"
                          tabIndex={-1}
                          aria-selected={index === active}
                          aria-label={emoji.name}
                          title={`:${emoji.name}:`}
                          className={styles.cell}
                          data-active={index === active ? 'true' : undefined}
                          onClick={() => onPick(emoji.name)}
                        >
                          <Emoji name={emoji.name} unicode={emoji.char} />
                        </button>
                      );
                    })
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
