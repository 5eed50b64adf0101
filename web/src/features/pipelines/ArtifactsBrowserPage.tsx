import { DownloadIcon, FileDirectoryFillIcon, FileIcon } from '@primer/octicons-react';
import { Breadcrumbs, Button, Heading, Stack, VisuallyHidden } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { TimeAgo } from '../../components/TimeAgo';
import { formatBytes } from '../../lib/file-content';
import type { Project } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { artifactsDownloadUrl, artifactsListingQuery } from './api';
import styles from './Pipelines.module.css';
import { DataTable } from '../../components/DataTable';

/**
 * `/<project>/-/jobs/:id/artifacts/browse/<dir>` (GitLab's artifacts browser): the directory's
 * subdirectories and files, a breadcrumb back up, each file downloaded on its own through the
 * jobs API, and the whole archive's download and expiry.
 */
export function ArtifactsBrowserPage({ project, id, path }: { project: Project; id: number; path: string }) {
  const fullPath = project.path_with_namespace;
  const listing = useQuery(artifactsListingQuery(fullPath, project.id, id, path));

  if (listing.isPending) return <PageLoading label="Loading artifacts…" />;
  if (listing.isError) {
    if ((listing.error as { status?: number }).status === 404) return <NotFoundPage />;
    return <PageError title="The artifacts could not be loaded." error={listing.error} onRetry={() => void listing.refetch()} />;
  }
  const { entries, archive } = listing.data;
  const segments = path === '' ? [] : path.split('/');
  return (
    <Stack gap="normal">
      <Stack direction="horizontal" justify="space-between" align="start" wrap="wrap">
        <Stack gap="condensed">
          <Heading as="h2" style={{ fontSize: 20 }}>
            Artifacts of job #{id}
          </Heading>
          <span className={styles.muted}>
            {archive.filename} · {formatBytes(archive.size)} ·{' '}
            {archive.expire_at ? (
              <>
                removed <TimeAgo date={archive.expire_at} />
              </>
            ) : (
              'kept'
            )}
          </span>
        </Stack>
        <Button as="a" leadingVisual={DownloadIcon} href={artifactsDownloadUrl(project.id, id)} download>
          Download artifacts archive
        </Button>
      </Stack>
      <Breadcrumbs aria-label="Artifacts path">
        <Breadcrumbs.Item as={RouterLink} to={urls.job(fullPath, id)}>
          Job #{id}
        </Breadcrumbs.Item>
        <Breadcrumbs.Item as={RouterLink} to={urls.jobArtifacts(fullPath, id)} selected={segments.length === 0}>
          artifacts
        </Breadcrumbs.Item>
        {segments.map((segment, index) => (
          <Breadcrumbs.Item key={index} as={RouterLink} to={urls.jobArtifacts(fullPath, id, segments.slice(0, index + 1).join('/'))} selected={index === segments.length - 1}>
            {segment}
          </Breadcrumbs.Item>
        ))}
      </Breadcrumbs>
      {entries.length === 0 ? (
        <EmptyState icon={FileDirectoryFillIcon} title="No files" description="This directory of the archive is empty." />
      ) : (
        <DataTable label="Artifacts" columns={['Name', 'Size', <VisuallyHidden>Download</VisuallyHidden>]}>
          {segments.length > 0 ? (
            <tr>
              <td colSpan={3}>
                <RouterLink to={urls.jobArtifacts(fullPath, id, segments.slice(0, -1).join('/'))}>..</RouterLink>
              </td>
            </tr>
          ) : null}
          {entries.map((entry) => (
            <tr key={entry.path}>
              <td>
                <span className={styles.headerMeta}>
                  {entry.type === 'directory' ? <FileDirectoryFillIcon aria-hidden="true" /> : <FileIcon aria-hidden="true" />}
                  {entry.type === 'directory' ? (
                    <RouterLink to={urls.jobArtifacts(fullPath, id, entry.path)}>{entry.name}</RouterLink>
                  ) : (
                    <a href={artifactsDownloadUrl(project.id, id, entry.path)} download>
                      {entry.name}
                    </a>
                  )}
                </span>
              </td>
              <td className={styles.muted}>{entry.size === null ? '' : formatBytes(entry.size)}</td>
              <td>
                {entry.type === 'file' ? (
                  <Button as="a" size="small" variant="invisible" leadingVisual={DownloadIcon} href={artifactsDownloadUrl(project.id, id, entry.path)} download aria-label={`Download ${entry.name}`}>
                    Download
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}
