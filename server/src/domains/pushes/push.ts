export const ZERO_SHA = '0000000000000000000000000000000000000000';

export interface RefUpdate {
  ref: string;
  oldSha: string;
  newSha: string;
  /** the new commit does not contain the old one (computed by the hook inside git's quarantine) */
  forced?: boolean;
}

export type RefKind = { kind: 'branch'; name: string } | { kind: 'tag'; name: string } | { kind: 'other'; name: string };

export function classifyRef(ref: string): RefKind {
  if (ref.startsWith('refs/heads/')) return { kind: 'branch', name: ref.slice('refs/heads/'.length) };
  if (ref.startsWith('refs/tags/')) return { kind: 'tag', name: ref.slice('refs/tags/'.length) };
  return { kind: 'other', name: ref };
}

export const isCreation = (update: RefUpdate) => /^0+$/.test(update.oldSha);
export const isDeletion = (update: RefUpdate) => /^0+$/.test(update.newSha);
