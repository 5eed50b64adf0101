import { CommentIcon, MilestoneIcon, GitBranchIcon, GitMergeIcon, GitPullRequestClosedIcon, GitPullRequestDraftIcon, GitPullRequestIcon } from '@primer/octicons-react';
import { Label } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { EntityAvatar } from '../../components/EntityAvatar';
import { LabelList } from '../labels';
import { TimeAgo } from '../../components/TimeAgo';
import type { MergeRequestBasic } from '../../lib/gitlab-types';
import styles from './MergeRequestList.module.css';
import { stateBadge } from './state';

/** Avatars shown per row before the rest are left out (avatar sizes 24 and 16, as GitLab's list). */
const MAX_AVATARS = 4;
const AVATAR_SIZE = 24;

const ICONS = { pullOpened: GitPullRequestIcon, draft: GitPullRequestDraftIcon, pullMerged: GitMergeIcon, pullClosed: GitPullRequestClosedIcon } as const;

/** One merge request in a list: title, reference, author and time, target branch, people, state. */
export function MergeRequestRow({ mr, href, projectPath }: { mr: MergeRequestBasic; href: string; projectPath?: string }) {
  const badge = stateBadge(mr);
  const Icon = ICONS[badge.status];
  const people = [...mr.assignees, ...mr.reviewers.filter((reviewer) => !mr.assignees.some((assignee) => assignee.id === reviewer.id))];
  return (
    <li className={styles.row}>
      <Icon className={styles[badge.status]} aria-label={badge.label} />
      <div className={styles.main}>
        <RouterLink to={href} className={styles.title}>
          {mr.title}
        </RouterLink>
        <div className={styles.meta}>
          <span>{projectPath ? `${projectPath}${mr.references.short}` : mr.references.short}</span>
          <span>
            · created <TimeAgo date={mr.created_at} /> by {mr.author?.name ?? 'a deleted user'}
          </span>
          <span className={styles.target} title={`Target branch: ${mr.target_branch}`}>
            <GitBranchIcon size={12} /> {mr.target_branch}
          </span>
          {mr.draft && mr.state === 'opened' ? <Label variant="secondary">Draft</Label> : null}
          {mr.milestone ? (
            <span title={`Milestone: ${mr.milestone.title}`}>
              <MilestoneIcon size={12} /> {mr.milestone.title}
            </span>
          ) : null}
          <LabelList names={mr.labels ?? []} />
        </div>
      </div>
      <div className={styles.side}>
        {mr.state !== 'opened' ? <span className={styles.state}>{badge.label}</span> : null}
        {people.length > 0 ? (
          <span className={styles.avatars} aria-label={`Assignees and reviewers: ${people.map((user) => user.name).join(', ')}`}>
            {people.slice(0, MAX_AVATARS).map((user) => (
              <span key={user.id} title={user.name}>
                <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={AVATAR_SIZE} square={false} />
              </span>
            ))}
          </span>
        ) : null}
        {mr.user_notes_count ? (
          <span className={styles.notes}>
            <CommentIcon size={14} /> {mr.user_notes_count}
          </span>
        ) : null}
        <span className={styles.updated}>
          updated <TimeAgo date={mr.updated_at} />
        </span>
      </div>
    </li>
  );
}
