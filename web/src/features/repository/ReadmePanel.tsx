import { BookIcon } from '@primer/octicons-react';
import { t } from '@tributary/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import { classifyFile } from '../../lib/file-content';
import { urls } from '../../lib/routes';
import { MarkdownBody } from '../markdown/MarkdownBody';
import { fileQuery, treeQuery } from './api';
import styles from './ReadmePanel.module.css';

const README = /^readme(\.(md|markdown|mdown|mkd|mkdn|txt|rst|adoc|asciidoc))?$/i;
const MARKDOWN = /\.(md|markdown|mdown|mkd|mkdn)$/i;
const ASCIIDOC = /\.(adoc|asciidoc)$/i;
const RESTRUCTURED_TEXT = /\.rst$/i;

/** GitLab shows a rendered README (Markdown, then AsciiDoc) before a plain-text one when a directory has several. */
const preference = (name: string) => (MARKDOWN.test(name) ? 0 : ASCIIDOC.test(name) ? 1 : 2);

/**
 * The directory's README below the file list: Markdown and AsciiDoc rendered by the server
 * (relative links to the repository's files at this ref, images from its raw files, as GitLab),
 * reStructuredText as plain text with a note saying so (Tributary has no reStructuredText
 * renderer), README and README.txt as preformatted text.
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
        ) : display?.kind === 'text' && ASCIIDOC.test(entry.name) ? (
          <MarkdownBody text={display.text} label={entry.name} repository={{ projectId, ref, dir: path, format: 'asciidoc' }} />
        ) : display?.kind === 'text' && RESTRUCTURED_TEXT.test(entry.name) ? (
          <>
            <p className={`fgMuted ${styles.note}`}>{t('reStructuredText is shown as plain text.')}</p>
            <pre className={styles.text}>{display.text}</pre>
          </>
        ) : display?.kind === 'text' ? (
          <pre className={styles.text}>{display.text}</pre>
        ) : (
          <span className="fgMuted">This README cannot be shown here.</span>
        )}
      </div>
    </section>
  );
}
