import { TriangleDownIcon } from '@primer/octicons-react';
import { Button, type SelectPanelProps } from '@primer/react';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../lib/api-error';

/**
 * What every picker over Primer's SelectPanel shares (labels, milestones, people, branches and tags):
 * the panel's open state and its search field, which empties when the panel closes; the items load
 * only while it is open; a load error or "nothing matches" is the panel's message; the anchor is a
 * small "Edit" (a sidebar) or a button naming the choice (a list filter).
 */

type PanelState = Pick<SelectPanelProps, 'open' | 'onOpenChange' | 'filterValue' | 'onFilterChange'>;

export interface Picker {
  open: boolean;
  /** the search field's text */
  filter: string;
  close(): void;
  /** SelectPanel's open state and search field */
  panel: PanelState;
}

/** `onClose` runs as the panel closes (before the search is emptied): a multiple choice is saved then. */
export function usePicker(onClose?: () => void): Picker {
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  return {
    open,
    filter,
    close: () => setOpen(false),
    panel: {
      open,
      onOpenChange: (next: boolean) => {
        setOpen(next);
        if (!next) {
          onClose?.();
          setFilter('');
        }
      },
      filterValue: filter,
      onFilterChange: setFilter,
    },
  };
}

/** A query that runs only while the panel is open is loading when open and not yet answered. */
export const pickerLoading = (query: { isPending: boolean }, open: boolean) => query.isPending && open;

/** A single choice in a list filter: choosing the chosen one again clears it (null). */
export const toggledChoice = <T,>(current: T | null, next: T | null): T | null => (next === current ? null : next);

/** The panel's message: the load error, else `empty` when nothing is listed once loaded. */
export function pickerMessage({ error, errorTitle, empty, isEmpty }: {
  error: unknown;
  errorTitle: string;
  empty?: { title: string; body: string };
  /** no items, and not loading */
  isEmpty: boolean;
}): SelectPanelProps['message'] {
  if (error) return { variant: 'error', title: errorTitle, body: errorMessage(error) };
  if (empty && isEmpty) return { variant: 'empty', ...empty };
  return undefined;
}

type AnchorProps = Parameters<NonNullable<SelectPanelProps['renderAnchor']>>[0];

/** The button that opens a picker: the sidebar's quiet "Edit", or a form's "Select …" with a caret. */
export interface PickerAnchor {
  text: string;
  /** its accessible name, naming what it edits */
  label: string;
  dropdown?: boolean;
}

export const pickerAnchor = ({ text, label, dropdown }: PickerAnchor) =>
  function Anchor({ children: _children, ...anchorProps }: AnchorProps) {
    return (
      <Button {...anchorProps} size="small" variant={dropdown ? 'default' : 'invisible'} trailingAction={dropdown ? TriangleDownIcon : undefined} aria-label={label}>
        {text}
      </Button>
    );
  };

/** The sidebar's anchor: a small, quiet "Edit" named for what it edits. */
export const editAnchor = (ariaLabel: string) => pickerAnchor({ text: 'Edit', label: ariaLabel });

/** A list filter's anchor: a small button with a caret, showing the choice. */
export const filterAnchor = (ariaLabel: string, content: ReactNode) =>
  function FilterAnchor({ children: _children, ...anchorProps }: AnchorProps) {
    return (
      <Button {...anchorProps} size="small" trailingAction={TriangleDownIcon} aria-label={ariaLabel}>
        {content}
      </Button>
    );
  };
