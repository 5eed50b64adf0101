import { BookIcon } from '@primer/octicons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { classifyFile } from '../../lib/file-content';
import { urls } from '../../lib/routes';
import { fileQuery, treeQuery } from './api';
import styles from './ReadmePanel.module.css';

const README = /^readme(\.(md|markdown|txt|rst|adoc))?$/i;

/**
 * The directory's README, shown as text below the file list. (Markdown is rendered
 * on the server in GitLab; until Tributary renders it, the source is shown.)
 */
export function ReadmePanel({ projectId, fullPath, ref, path }: { projectId: number; fullPath: string; ref: string; path: string }) {
  const tree = useInfiniteQuery(treeQuery(projectId, ref, path));
  const entry = tree.data?.pages.flatMap((page) => page.items).find((item) => item.type === 'blob' && README.test(item.name));
  const file = useQuery({ ...fileQuery(projectId, ref, entry?.path ?? ''), enabled: entry !== undefined });
  if (!entry) return null;
  const display = file.data ? classifyFile(file.data) : null;
  return (
    <section className={styles.panel} aria-labelledby="readme-heading">
      <header className={styles.header}>
        <BookIcon />
        <h2 id="readme-heading" className={styles.title}>
          <RouterLink to={urls.blob(fullPath, ref, entry.path)}>{entry.name}</RouterLink>
        </h2>
      </header>
      <div className={styles.body}>
        {file.isPending ? (
          <span className="fgMuted">Loading {entry.name}…</span>
        ) : file.isError ? (
          <PageError error={file.error} onRetry={() => void file.refetch()} />
        ) : display?.kind === 'text' ? (
          <pre className={styles.text}>{display.text}</pre>
        ) : (
          <span className="fgMuted">This README cannot be shown here.</span>
        )}
      </div>
    </section>
  );
}
