import { FileCodeIcon, GitCommitIcon } from '@primer/octicons-react';
import { Heading, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { LinkButton } from '../../components/AppLink';
import { CopyButton } from '../../components/CopyButton';
import { EntityAvatar } from '../../components/EntityAvatar';
import { PageError } from '../../components/PageError';
import { TimeAgo } from '../../components/TimeAgo';
import { NotFoundPage } from '../../app/NotFoundPage';
import { ApiError } from '../../lib/api-error';
import type { CommitSummary, Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { commitDiffQuery, commitQuery } from './api';
import { DiffFile } from './DiffFile';
import styles from './CommitPage.module.css';

/** The commit message without its first line (the title). */
function messageBody(commit: CommitSummary): string {
  const newline = commit.message.indexOf('\n');
  return newline === -1 ? '' : commit.message.slice(newline + 1).trim();
}

function CommitDiffs({ projectId, sha }: { projectId: number; sha: string }) {
  const diff = useQuery(commitDiffQuery(projectId, sha));
  if (diff.isPending) return <SkeletonBox height="200px" />;
  if (diff.isError) return <PageError title="The changes could not be loaded." error={diff.error} onRetry={() => void diff.refetch()} />;
  const files = diff.data.items;
  return (
    <Stack gap="normal">
      <Heading as="h2" variant="small">
        {files.length === 1 ? 'Showing 1 changed file' : `Showing ${files.length} changed files`}
        {diff.data.pageInfo.nextPage ? ' (first page)' : ''}
      </Heading>
      {files.map((file) => (
        <DiffFile key={`${file.old_path}→${file.new_path}`} diff={file} />
      ))}
    </Stack>
  );
}

/** `/<project path>/-/commit/<sha>`: message, author, parents, and the diff. */
export function CommitPage({ project, sha }: { project: Project; sha: string }) {
  const commit = useQuery(commitQuery(project.id, sha));
  const fullPath = project.path_with_namespace;
  if (commit.isPending) return <SkeletonBox height="160px" />;
  if (commit.isError) {
    return commit.error instanceof ApiError && commit.error.isNotFound ? (
      <NotFoundPage />
    ) : (
      <PageError error={commit.error} onRetry={() => void commit.refetch()} />
    );
  }
  const data = commit.data;
  const body = messageBody(data);
  return (
    <Stack gap="spacious">
      <div className={styles.header}>
        <div className={styles.commitLine}>
          <GitCommitIcon />
          <span>
            Commit <code className={styles.sha}>{data.short_id}</code>
          </span>
          <CopyButton text={data.id} label="Copy commit SHA" size="small" />
          <span className={styles.author}>
            <EntityAvatar name={data.author_name} id={data.author_name.length} size={20} square={false} />
            authored by <strong>{data.author_name}</strong> <TimeAgo date={data.authored_date} />
          </span>
          <span className={styles.spacer} />
          <LinkButton to={urls.tree(fullPath, data.id)} leadingVisual={FileCodeIcon} size="small">
            Browse files
          </LinkButton>
        </div>
        <Heading as="h2" variant="medium" className={styles.title}>
          {data.title}
        </Heading>
        {body ? <pre className={styles.body}>{body}</pre> : null}
        <div className={styles.parents}>
          {data.parent_ids.length === 0 ? (
            'No parent commits (root commit)'
          ) : (
            <>
              {data.parent_ids.length === 1 ? '1 parent' : `${data.parent_ids.length} parents`}{' '}
              {data.parent_ids.map((parent) => (
                <RouterLink key={parent} to={urls.commit(fullPath, parent)} className={styles.sha}>
                  {parent.slice(0, 8)}
                </RouterLink>
              ))}
            </>
          )}
          {data.committer_name !== data.author_name ? (
            <span>
              {' '}
              · committed by <strong>{data.committer_name}</strong> <TimeAgo date={data.committed_date} />
            </span>
          ) : null}
        </div>
      </div>
      <CommitDiffs projectId={project.id} sha={data.id} />
    </Stack>
  );
}
