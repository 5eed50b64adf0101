import { FileCodeIcon } from '@primer/octicons-react';
import { IconButton } from '@primer/react';
import { Link as RouterLink } from 'react-router-dom';
import { CopyButton } from '../../components/CopyButton';
import { EntityAvatar } from '../../components/EntityAvatar';
import { TimeAgo } from '../../components/TimeAgo';
import type { CommitSummary } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import styles from './CommitRow.module.css';

/** One commit in a list: title, author and time; short SHA with copy; browse files at that commit. */
export function CommitRow({ commit, fullPath }: { commit: CommitSummary; fullPath: string }) {
  return (
    <li className={styles.row}>
      <EntityAvatar name={commit.author_name} id={commit.author_name.length} size={32} square={false} />
      <div className={styles.main}>
        <RouterLink to={urls.commit(fullPath, commit.id)} className={styles.title}>
          {commit.title}
        </RouterLink>
        <div className={styles.meta}>
          <strong>{commit.author_name}</strong> authored <TimeAgo date={commit.authored_date} />
        </div>
      </div>
      <div className={styles.actions}>
        <RouterLink to={urls.commit(fullPath, commit.id)} className={styles.sha} aria-label={`Commit ${commit.short_id}`}>
          {commit.short_id}
        </RouterLink>
        <CopyButton text={commit.id} label="Copy commit SHA" size="small" />
        <IconButton
          as={RouterLink}
          to={urls.tree(fullPath, commit.id)}
          icon={FileCodeIcon}
          aria-label="Browse files at this commit"
          size="small"
        />
      </div>
    </li>
  );
}
