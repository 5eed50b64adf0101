import { t } from '@tributary/contracts';
import type { KeyboardEvent, ReactNode } from 'react';
import { MarkdownField } from '../markdown/MarkdownField';
import { SuggestionPreview, type SuggestionSource } from '../suggestions/SuggestionPreview';
import { editorKeyAction } from './editor-keys';
import styles from './Notes.module.css';

/**
 * A comment's Markdown field (markdown/MarkdownField.tsx: Write, Preview, uploads) with the
 * keys of GitLab's comment field (editor-keys.ts): Ctrl/Cmd+Enter sends, Shift+Ctrl/Cmd+Enter sends directly (onSubmitDirect, past a review in
 * progress), Escape cancels, Up in an empty field asks to edit the last own note.
 */
export function NoteEditor({
  value,
  onChange,
  onSubmit,
  onSubmitDirect,
  onCancel,
  onEditLast,
  project,
  label,
  placeholder,
  autoFocus,
  suggestionSource,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  /** Shift+Ctrl/Cmd+Enter; without it the keys send like Ctrl/Cmd+Enter */
  onSubmitDirect?: () => void;
  onCancel?: () => void;
  onEditLast?: () => void;
  project: number;
  label: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** a diff comment's file and line: its Preview draws ```suggestion blocks as the posted note will */
  suggestionSource?: SuggestionSource | null;
  /** the buttons under the field */
  children: ReactNode;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = editorKeyAction(event, { empty: value === '', canCancel: onCancel !== undefined, canEditLast: onEditLast !== undefined });
    if (action === null) return;
    event.preventDefault();
    if (action === 'submit') onSubmit();
    else if (action === 'submit-direct') (onSubmitDirect ?? onSubmit)();
    else if (action === 'cancel') onCancel?.();
    else onEditLast?.();
  };
  return (
    <MarkdownField
      kind="comment"
      value={value}
      onChange={onChange}
      project={project}
      switchLabel={t('Editor mode')}
      previewLabel={t('Preview')}
      classes={{ root: styles.editor, head: styles.editorTabs, tab: styles.editorTab, preview: styles.preview }}
      renderPreview={suggestionSource ? (text, previewLabel) => <SuggestionPreview text={text} source={suggestionSource} label={previewLabel} /> : undefined}
      textarea={{ rows: 4, 'aria-label': label, placeholder: placeholder ?? t('Write a comment or drag your files here…'), autoFocus, onKeyDown }}
    >
      <div className={styles.editorActions}>{children}</div>
    </MarkdownField>
  );
}
