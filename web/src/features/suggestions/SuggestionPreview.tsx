import { Spinner } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { splitSuggestions } from '@tributary/contracts/suggestions';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/client';
import { MarkdownBody } from '../markdown/MarkdownBody';
import { previewSegments } from './suggestion-diff';
import { SuggestionLines } from './SuggestionLines';
import styles from './Suggestions.module.css';

/** Where a diff comment points: enough to read the lines its suggestions replace. */
export interface SuggestionSource {
  projectId: number;
  path: string;
  /** the position's head commit, which never changes */
  headSha: string;
  /** the commented line on the new side */
  line: number;
}

/** A text position's source for the preview (a thread's first note's position, a new diff comment's); null elsewhere. */
export function suggestionSourceOf(
  projectId: number,
  position: { position_type: string; new_path: string; head_sha: string; new_line?: number | null } | null | undefined,
): SuggestionSource | null {
  if (!position || position.position_type !== 'text' || position.new_line == null) return null;
  return { projectId, path: position.new_path, headSha: position.head_sha, line: position.new_line };
}

/**
 * A diff comment's Preview: its ```suggestion blocks drawn as the proposed change the posted
 * note will show (the commented lines read at the position's head), the rest as Markdown. A
 * body without suggestions, or a file that cannot be read, previews as plain Markdown.
 */
export function SuggestionPreview({ text, source, label }: { text: string; source: SuggestionSource; label: string }) {
  const hasSuggestion = splitSuggestions(text).some((segment) => segment.kind === 'suggestion');
  const file = useQuery({
    queryKey: ['suggestion-source', source.projectId, source.headSha, source.path],
    queryFn: ({ signal }) => api.getText(`/projects/${source.projectId}/repository/files/${encodeURIComponent(source.path)}/raw`, { signal, query: { ref: source.headSha } }),
    enabled: hasSuggestion,
    staleTime: Infinity,
    retry: false,
  });
  if (!hasSuggestion || file.isError) return <MarkdownBody text={text} project={source.projectId} label={label} />;
  if (file.data === undefined) return <Spinner size="small" srText={t('Loading the suggested lines')} />;
  return (
    <div aria-label={label}>
      {previewSegments(text, file.data, source.line).map((segment, i) =>
        segment.kind === 'markdown' ? (
          segment.text.trim() === '' ? null : <MarkdownBody key={i} text={segment.text} project={source.projectId} />
        ) : (
          <div key={i} className={styles.block} data-suggestion-preview>
            <div className={styles.header}>
              <span className={styles.title}>{t('Suggested change')}</span>
            </div>
            <SuggestionLines suggestion={segment.suggestion} />
          </div>
        ),
      )}
    </div>
  );
}
