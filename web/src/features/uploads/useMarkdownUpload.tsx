import { Flash, ProgressBar } from '@primer/react';
import { t } from '@tributary/contracts';
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import { errorMessage } from '../../lib/api-error';
import { uploadFile } from './api';
import { filesOf, insertMarkdown, MAX_UPLOAD_BYTES } from './insert-markdown';
import styles from './Uploads.module.css';

interface Pending {
  id: number;
  name: string;
  progress: number;
}

/**
 * Paste or drop files into a Markdown textarea: each file is uploaded to the project
 * (POST /projects/:id/uploads) with a progress bar, and its markdown goes where the caret was.
 * Spread `textareaProps` on the textarea and render `status` near it.
 */
export function useMarkdownUpload({ project, value, onChange }: { project: number | string; value: string; onChange: (value: string) => void }): {
  textareaProps: {
    onPaste: (event: ClipboardEvent<HTMLTextAreaElement>) => void;
    onDrop: (event: DragEvent<HTMLTextAreaElement>) => void;
    onDragOver: (event: DragEvent<HTMLTextAreaElement>) => void;
  };
  uploading: boolean;
  status: ReactNode;
} {
  const [pending, setPending] = useState<Pending[]>([]);
  const [error, setError] = useState<string | null>(null);
  // the text and its setter as they are when an upload finishes, not when it started
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };
  const aborts = useRef(new Set<AbortController>());
  const nextId = useRef(0);
  useEffect(() => () => aborts.current.forEach((controller) => controller.abort()), []);

  async function start(files: File[], caret: number) {
    setError(null);
    let at = caret;
    for (const file of files) {
      if (file.size > MAX_UPLOAD_BYTES) {
        setError(t('The file %{name} is too large (maximum is 10 MB).', { name: file.name }));
        continue;
      }
      const controller = new AbortController();
      aborts.current.add(controller);
      const id = nextId.current++;
      setPending((list) => [...list, { id, name: file.name, progress: 0 }]);
      const onProgress = (progress: number) => setPending((list) => list.map((p) => (p.id === id ? { ...p, progress } : p)));
      try {
        const uploaded = await uploadFile(project, file, onProgress, controller.signal);
        const next = insertMarkdown(latest.current.value, at, uploaded.markdown);
        at = next.caret;
        latest.current.onChange(next.value);
      } catch (failure) {
        if (!(failure instanceof DOMException && failure.name === 'AbortError')) setError(t('Attaching the file failed: %{reason}', { reason: errorMessage(failure) }));
      } finally {
        aborts.current.delete(controller);
        setPending((list) => list.filter((p) => p.id !== id));
      }
    }
  }

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = filesOf(event.clipboardData);
    if (files.length === 0) return;
    event.preventDefault();
    void start(files, event.currentTarget.selectionStart ?? value.length);
  };
  const onDrop = (event: DragEvent<HTMLTextAreaElement>) => {
    const files = filesOf(event.dataTransfer);
    if (files.length === 0) return;
    event.preventDefault();
    void start(files, event.currentTarget.selectionStart ?? value.length);
  };
  const onDragOver = (event: DragEvent<HTMLTextAreaElement>) => {
    if (Array.from(event.dataTransfer?.types ?? []).includes('Files')) event.preventDefault();
  };

  const status =
    pending.length > 0 || error ? (
      <div className={styles.status}>
        {pending.map((p) => (
          <div key={p.id} role="status" className={styles.progress}>
            <span>{t('Uploading %{name}…', { name: p.name })}</span>
            <ProgressBar progress={Math.round(p.progress * 100)} aria-label={t('Upload progress')} barSize="small" className={styles.bar} />
          </div>
        ))}
        {error ? (
          <Flash variant="danger" role="alert">
            {error}
          </Flash>
        ) : null}
      </div>
    ) : null;

  return { textareaProps: { onPaste, onDrop, onDragOver }, uploading: pending.length > 0, status };
}
