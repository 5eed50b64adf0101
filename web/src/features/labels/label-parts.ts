/**
 * How a label is drawn, GitLab's way: a scoped label `key::value` shows its key on the label's
 * colour and its value beside it (the scope is everything before the last `::`). Pure.
 */
export function labelParts(name: string): { key: string; value: string | null } {
  const at = name.lastIndexOf('::');
  if (at <= 0 || at + 2 >= name.length) return { key: name, value: null };
  return { key: name.slice(0, at), value: name.slice(at + 2) };
}

/** A colour safe to put in a style: exactly #RGB or #RRGGBB (else GitLab's default). */
export function safeColor(color: string | undefined): string {
  return color && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : '#6699cc';
}

/** `~bug` / `~"needs review"`, for a label's reference. */
export function labelReference(name: string): string {
  return /^[A-Za-z0-9_\-?.&]+$/.test(name) ? `~${name}` : `~"${name}"`;
}
