import { FileDirectoryFillIcon, FileIcon, FileSubmoduleIcon } from '@primer/octicons-react';
import { Button } from '@primer/react';
import { SkeletonText } from '@primer/react/experimental';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import type { TreeEntry } from '../../lib/gitlab-types';
import { parentDir, urls } from '../../lib/routes';
import { sortTreeEntries } from '../../lib/tree';
import { treeQuery } from './api';
import styles from './TreeTable.module.css';

function EntryIcon({ type }: { type: TreeEntry['type'] }) {
  if (type === 'tree') return <FileDirectoryFillIcon className={styles.dirIcon} aria-label="Directory" />;
  if (type === 'commit') return <FileSubmoduleIcon className={styles.fileIcon} aria-label="Submodule" />;
  return <FileIcon className={styles.fileIcon} aria-label="File" />;
}

/** A directory's entries: directories first, each a link to its tree or blob page. */
export function TreeTable({
  projectId,
  fullPath,
  ref,
  path,
}: {
  projectId: number;
  fullPath: string;
  ref: string;
  path: string;
}) {
  const tree = useInfiniteQuery(treeQuery(projectId, ref, path));
  const entries = useMemo(() => sortTreeEntries(tree.data?.pages.flatMap((page) => page.items) ?? []), [tree.data]);

  if (tree.isPending) {
    return (
      <div className={styles.loading} aria-label="Loading files" role="status">
        <SkeletonText lines={5} />
      </div>
    );
  }
  if (tree.isError) return <div className={styles.loading}><PageError title="The files could not be loaded." error={tree.error} onRetry={() => void tree.refetch()} /></div>;

  return (
    <>
      <table className={styles.table} aria-label="Files">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Name</th>
          </tr>
        </thead>
        <tbody>
          {path ? (
            <tr>
              <td>
                <RouterLink to={urls.tree(fullPath, ref, parentDir(path))} className={styles.link} aria-label="Go to parent directory">
                  <FileDirectoryFillIcon className={styles.dirIcon} aria-hidden="true" /> ..
                </RouterLink>
              </td>
            </tr>
          ) : null}
          {entries.map((entry) => (
            <tr key={`${entry.type}:${entry.path}`}>
              <td>
                {entry.type === 'commit' ? (
                  <span className={styles.link}>
                    <EntryIcon type={entry.type} /> {entry.name} <span className="fgMuted">@ {entry.id.slice(0, 8)}</span>
                  </span>
                ) : (
                  <RouterLink
                    to={entry.type === 'tree' ? urls.tree(fullPath, ref, entry.path) : urls.blob(fullPath, ref, entry.path)}
                    className={styles.link}
                  >
                    <EntryIcon type={entry.type} /> {entry.name}
                  </RouterLink>
                )}
              </td>
            </tr>
          ))}
          {entries.length === 0 && !path ? (
            <tr>
              <td className="fgMuted">This directory is empty.</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      {tree.hasNextPage ? (
        <div className={styles.more}>
          <Button onClick={() => void tree.fetchNextPage()} loading={tree.isFetchingNextPage}>
            Load more
          </Button>
        </div>
      ) : null}
    </>
  );
}
