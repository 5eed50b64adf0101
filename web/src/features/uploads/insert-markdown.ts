/**
 * Where an uploaded file's markdown goes: at the caret the user pasted or dropped at, on a
 * line of its own when it would otherwise run into the text around it. Pure.
 */
export function insertMarkdown(value: string, at: number, markdown: string): { value: string; caret: number } {
  const position = Math.max(0, Math.min(at, value.length));
  const before = value.slice(0, position);
  const after = value.slice(position);
  const lead = before === '' || before.endsWith('\n') ? '' : before.endsWith(' ') ? '' : ' ';
  const trail = after === '' || after.startsWith('\n') || after.startsWith(' ') ? '' : ' ';
  const inserted = `${lead}${markdown}${trail}`;
  return { value: `${before}${inserted}${after}`, caret: position + inserted.length };
}

/** The files of a paste or drop: only real files (a pasted text selection has none). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return Array.from(data.files ?? []).filter((file) => file.size >= 0);
}

/** GitLab's default attachment limit (10 MB): refused before sending anything. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
