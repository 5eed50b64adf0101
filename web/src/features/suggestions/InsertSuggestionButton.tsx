import { FileDiffIcon } from '@primer/octicons-react';
import { Button } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { suggestionTemplate } from '@tributary/contracts/suggestions';
import { useState } from 'react';
import { api } from '../../app/client';
import { commentedLines, fileLines } from './suggestion-diff';

interface TextPositionLike {
  position_type: string;
  new_path: string;
  head_sha: string;
  new_line?: number | null;
  line_range?: { start: { new_line: number | null } } | null;
}

/**
 * GitLab's 'Insert suggestion' for a diff comment: puts a ```suggestion block holding the
 * commented lines (read at the version's head) into the comment, ready to edit. Only for a
 * line on the new side: a removed line cannot take a suggestion.
 */
export function InsertSuggestionButton({ projectId, position, value, onChange }: { projectId: number; position: TextPositionLike; value: string; onChange: (value: string) => void }) {
  const [busy, setBusy] = useState(false);
  const lines = position.position_type === 'text' ? commentedLines({ new_line: position.new_line ?? null, line_range: position.line_range }) : null;
  if (!lines) return null;
  const insert = async () => {
    setBusy(true);
    try {
      const file = await api.getText(`/projects/${projectId}/repository/files/${encodeURIComponent(position.new_path)}/raw`, { query: { ref: position.head_sha } });
      const block = suggestionTemplate(fileLines(file, lines.start, lines.end), lines.end - lines.start, 0);
      onChange(value.trim() === '' ? block : `${value.replace(/\n*$/, '')}\n${block}`);
    } catch {
      // the file could not be read (gone, or too large): there is nothing to put in
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button leadingVisual={FileDiffIcon} variant="invisible" onClick={() => void insert()} disabled={busy}>
      {t('Insert suggestion')}
    </Button>
  );
}
