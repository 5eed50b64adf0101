import { GitCommitIcon, HistoryIcon } from '@primer/octicons-react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { EntityAvatar } from '../../components/EntityAvatar';
import { LinkButton } from '../../components/AppLink';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import { urls } from '../../lib/routes';
import { lastCommitQuery } from './api';
import styles from './LastCommit.module.css';

/** The newest commit touching this path, as the top row of the file browser. */
export function LastCommit({ projectId, fullPath, ref, path }: { projectId: number; fullPath: string; ref: string; path: string }) {
  const commit = useQuery(lastCommitQuery(projectId, ref, path));
  return (
    <div className={styles.box}>
      {commit.isPending ? (
        <span className="fgMuted">Loading the last commit…</span>
      ) : commit.isError ? (
        <span className="fgMuted">The last commit could not be loaded: {errorMessage(commit.error)}</span>
      ) : commit.data === null ? (
        <span className="fgMuted">No commits yet</span>
      ) : (
        <>
          <EntityAvatar name={commit.data.author_name} id={commit.data.author_name.length} size={20} square={false} />
          <span className={styles.author}>{commit.data.author_name}</span>
          <RouterLink to={urls.commit(fullPath, commit.data.id)} className={styles.title}>
            {commit.data.title}
          </RouterLink>
          <span className={styles.meta}>
            <GitCommitIcon size={14} /> <code>{commit.data.short_id}</code> · <TimeAgo date={commit.data.committed_date} />
          </span>
        </>
      )}
      <LinkButton to={urls.commits(fullPath, ref, path)} size="small" leadingVisual={HistoryIcon}>
        History
      </LinkButton>
    </div>
  );
}
