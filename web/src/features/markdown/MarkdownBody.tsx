import 'highlight.js/styles/github.css';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '@primer/react';
import { useLayoutEffect, useRef } from 'react';
import { upgradeGlEmoji } from '../../components/gl-emoji';
import { renderedMarkdownQuery, repositoryMarkdownQuery } from './api';
import styles from './MarkdownBody.module.css';

/**
 * Markdown as the server renders it (GitLab Flavored, references, sanitized). While it
 * renders, and if rendering fails, the source text shows as it reads, so nothing is lost.
 */
export function MarkdownBody({
  text,
  project,
  label,
  repository,
}: {
  text: string;
  project?: number | string;
  label?: string;
  /** a file of the project's repository (a README): relative links and images resolve in it; AsciiDoc with `format` */
  repository?: { projectId: number; ref: string; dir: string; format?: 'markdown' | 'asciidoc' };
}) {
  const inProject = useQuery({ ...renderedMarkdownQuery(text, project), enabled: repository === undefined });
  const inRepository = useQuery({
    ...repositoryMarkdownQuery(repository?.projectId ?? 0, text, repository?.ref ?? '', repository?.dir ?? '', repository?.format),
    enabled: repository !== undefined,
  });
  const rendered = repository ? inRepository : inProject;
  const body = useRef<HTMLDivElement>(null);
  // before paint, so an emoji the browser cannot draw never shows as a box first
  useLayoutEffect(() => {
    if (body.current) upgradeGlEmoji(body.current);
  }, [rendered.data]);
  if (rendered.data !== undefined) {
    // The HTML comes from the server's allow-list sanitizer (server/src/markdown/sanitize.ts).
    return <div ref={body} className={styles.markdown} aria-label={label} dangerouslySetInnerHTML={{ __html: rendered.data }} />;
  }
  return (
    <div className={styles.pending} aria-label={label} aria-busy={rendered.isPending}>
      {rendered.isPending ? <Spinner size="small" srText="Rendering Markdown" className={styles.spinner} /> : null}
      {text}
    </div>
  );
}
