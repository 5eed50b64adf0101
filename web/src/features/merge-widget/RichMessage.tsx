import { Fragment, type ReactNode } from 'react';
import { splitMessage } from './rich-text';

/**
 * A message from messages.ts with elements in it: `slots` fill %{name} placeholders,
 * `wraps` render the text of %{nameStart}…%{nameEnd} pairs; `values` are plain text.
 */
export function RichMessage({
  message,
  values,
  slots = {},
  wraps = {},
}: {
  message: string;
  values?: Record<string, string | number>;
  slots?: Record<string, ReactNode>;
  wraps?: Record<string, (text: string) => ReactNode>;
}) {
  return (
    <>
      {splitMessage(message, values).map((part, index) => (
        <Fragment key={index}>
          {part.kind === 'text' ? part.text : part.kind === 'slot' ? slots[part.name] : (wraps[part.name]?.(part.text) ?? part.text)}
        </Fragment>
      ))}
    </>
  );
}
