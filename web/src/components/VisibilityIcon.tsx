import { EyeIcon, GlobeIcon, LockIcon, ShieldIcon } from '@primer/octicons-react';
import type { Visibility } from '../lib/gitlab-types';

const LABELS: Record<Visibility, string> = { private: 'Private', internal: 'Internal', public: 'Public' };

/** The visibility as an icon with an accessible name (GitLab's lock / shield / globe). */
export function VisibilityIcon({ visibility, decorative = false }: { visibility: Visibility; decorative?: boolean }) {
  const Icon = visibility === 'private' ? LockIcon : visibility === 'internal' ? ShieldIcon : visibility === 'public' ? GlobeIcon : EyeIcon;
  const label = LABELS[visibility] ?? visibility;
  return (
    <span title={decorative ? undefined : label} className="visibilityIcon">
      {decorative ? <Icon aria-hidden="true" size={14} /> : <Icon aria-label={label} size={14} />}
    </span>
  );
}

export function visibilityLabel(visibility: Visibility): string {
  return LABELS[visibility] ?? visibility;
}
