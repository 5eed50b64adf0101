import { BookIcon } from '@primer/octicons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { classifyFile } from '../../lib/file-content';
import { urls } from '../../lib/routes';
import { MarkdownBody } from '../markdown';
import { fileQuery, treeQuery } from './api';
import styles from './ReadmePanel.module.css';

const README = /^readme(\.(md|markdown|mdown|mkd|mkdn|txt|rst|adoc))?$/i;
const MARKDOWN = /\.(md|markdown|mdown|mkd|mkdn)$/i;

/** GitLab shows a Markdown README first when a directory has several. */
const preference = (name: string) => (MARKDOWN.test(name) ? 0 : 1);

/**
 * The directory's README below the file list: Markdown rendered by the server (relative links to
 * the repository's files at this ref, images from its raw files, as GitLab), other formats as text.
 */
export function ReadmePanel({ projectId, fullPath, ref, path }: { projectId: number; fullPath: string; ref: string; path: string }) {
  const tree = useInfiniteQuery(treeQuery(projectId, ref, path));
  const entry = tree.data?.pages
    .flatMap((page) => page.items)
    .filter((item) => item.type === 'blob' && README.test(item.name))
    .sort((a, b) => preference(a.name) - preference(b.name))[0];
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
        ) : display?.kind === 'text' && MARKDOWN.test(entry.name) ? (
          <MarkdownBody text={display.text} label={entry.name} repository={{ projectId, ref, dir: path }} />
        ) : display?.kind === 'text' ? (
          <pre className={styles.text}>{display.text}</pre>
        ) : (
          <span className="fgMuted">This README cannot be shown here.</span>
        )}
      </div>
    </section>
  );
}
