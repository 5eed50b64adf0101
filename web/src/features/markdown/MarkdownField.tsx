import { SegmentedControl, Textarea, type TextareaProps } from '@primer/react';
import { t } from '@tributary/contracts';
import { useState, type ReactNode } from 'react';
import { useMarkdownUpload } from '../uploads/useMarkdownUpload';
import { MarkdownBody } from './MarkdownBody';

/**
 * The one Markdown editor: Write and Preview, a textarea that uploads pasted or dropped files
 * (features/uploads), and a preview rendered by the server for `project`, so references resolve
 * as they will on the page. Comments (notes/NoteEditor) and descriptions
 * (merge-requests/DescriptionField) wrap it.
 *
 * The two kinds keep the markup they have always had, which browser tests and screen readers
 * rely on: a comment switches with a tablist and names its preview's body; a description switches
 * with Primer's SegmentedControl and its preview is a named region.
 */
export function MarkdownField({
  kind,
  value,
  onChange,
  project,
  switchLabel,
  previewLabel,
  label,
  classes,
  textarea,
  renderPreview,
  children,
}: {
  kind: 'comment' | 'description';
  value: string;
  onChange: (value: string) => void;
  project: number | string;
  /** the Write/Preview switch's accessible name */
  switchLabel: string;
  /** the preview's accessible name */
  previewLabel: string;
  /** shown before the switch, e.g. the field's visible <label> */
  label?: ReactNode;
  /** the wrapper's own styles; `tab` styles the comment tabs */
  classes: { root?: string; head?: string; tab?: string; preview?: string };
  /** everything the textarea needs besides its value: its name, rows, placeholder, keys */
  textarea: Omit<TextareaProps, 'value' | 'onChange'>;
  /** draws the comment preview instead of plain Markdown (a diff comment's suggestions) */
  renderPreview?: (text: string, label: string) => ReactNode;
  /** under the field: captions, errors, buttons */
  children?: ReactNode;
}) {
  const [preview, setPreview] = useState(false);
  const upload = useMarkdownUpload({ project, value, onChange });
  const filled = value.trim() !== '';
  return (
    <div className={classes.root}>
      <div className={classes.head} {...(kind === 'comment' ? { role: 'tablist', 'aria-label': switchLabel } : {})}>
        {label}
        {kind === 'comment' ? (
          <>
            <button type="button" role="tab" aria-selected={!preview} className={classes.tab} onClick={() => setPreview(false)}>
              {t('Write')}
            </button>
            <button type="button" role="tab" aria-selected={preview} className={classes.tab} onClick={() => setPreview(true)}>
              {t('Preview')}
            </button>
          </>
        ) : (
          <SegmentedControl aria-label={switchLabel} size="small">
            <SegmentedControl.Button selected={!preview} onClick={() => setPreview(false)}>
              {t('Write')}
            </SegmentedControl.Button>
            <SegmentedControl.Button selected={preview} onClick={() => setPreview(true)}>
              {t('Preview')}
            </SegmentedControl.Button>
          </SegmentedControl>
        )}
      </div>
      {!preview ? (
        <Textarea block resize="vertical" {...textarea} value={value} onChange={(event) => onChange(event.target.value)} {...upload.textareaProps} />
      ) : kind === 'comment' ? (
        <div className={classes.preview}>{filled ? (renderPreview?.(value, previewLabel) ?? <MarkdownBody text={value} project={project} label={previewLabel} />) : <p className="fgMuted">{t('Nothing to preview.')}</p>}</div>
      ) : (
        <div className={classes.preview} aria-label={previewLabel} role="region">
          {filled ? <MarkdownBody text={value} project={project} /> : <span className="fgMuted">{t('Nothing to preview.')}</span>}
        </div>
      )}
      {upload.status}
      {children}
    </div>
  );
}
