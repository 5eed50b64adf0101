import { Textarea } from '@primer/react';
import { t } from '@tributary/contracts';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { MarkdownBody } from '../markdown/MarkdownBody';
import styles from './Notes.module.css';

/**
 * A Markdown field with Write and Preview, and the keys of seed 001 §5: Ctrl/Cmd+Enter
 * sends, Escape cancels, Up in an empty field asks to edit the last own note.
 */
export function NoteEditor({
  value,
  onChange,
  onSubmit,
  onCancel,
  onEditLast,
  project,
  label,
  placeholder,
  autoFocus,
  children,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onCancel?: () => void;
  onEditLast?: () => void;
  project: number;
  label: string;
  placeholder?: string;
  autoFocus?: boolean;
  /** the buttons under the field */
  children: ReactNode;
}) {
  const [preview, setPreview] = useState(false);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      onSubmit();
    } else if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'ArrowUp' && value === '' && onEditLast) {
      event.preventDefault();
      onEditLast();
    }
  };
  return (
    <div className={styles.editor}>
      <div className={styles.editorTabs} role="tablist" aria-label={t('Editor mode')}>
        <button type="button" role="tab" aria-selected={!preview} className={styles.editorTab} onClick={() => setPreview(false)}>
          {t('Write')}
        </button>
        <button type="button" role="tab" aria-selected={preview} className={styles.editorTab} onClick={() => setPreview(true)}>
          {t('Preview')}
        </button>
      </div>
      {preview ? (
        <div className={styles.preview}>{value.trim() ? <MarkdownBody text={value} project={project} label={t('Preview')} /> : <p className="fgMuted">{t('Nothing to preview.')}</p>}</div>
      ) : (
        <Textarea
          block
          resize="vertical"
          rows={4}
          aria-label={label}
          placeholder={placeholder ?? t('Write a comment or drag your files here…')}
          value={value}
          autoFocus={autoFocus}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
        />
      )}
      <div className={styles.editorActions}>{children}</div>
    </div>
  );
}
