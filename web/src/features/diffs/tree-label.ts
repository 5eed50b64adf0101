/** A tree row's accessible name: the file, its line counts when known, and whether it was viewed. */
export function treeRowLabel(name: string, counts: { added: number; removed: number } | null, viewed: boolean): string {
  const parts = [name];
  if (counts) parts.push(`${counts.added} added`, `${counts.removed} removed`);
  if (viewed) parts.push('viewed');
  return parts.join(', ');
}
