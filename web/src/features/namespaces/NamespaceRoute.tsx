import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { ApiError } from '../../lib/api-error';
import { settingsEditPath, splitAtDash } from '../../lib/routes';
import { groupQuery, GroupPage } from '../groups';
import { projectQuery, ProjectRoute } from '../projects';

const isNotFound = (error: unknown) => error instanceof ApiError && error.isNotFound;

/**
 * `/<full/path>[/-/<page>]`: a project if one has that path, otherwise (without
 * a `/-/` sub-page) a group, otherwise "Page not found", like GitLab's router.
 */
export function NamespaceRoute() {
  const { pathname } = useLocation();
  const split = splitAtDash(pathname);
  const { fullPath, rest } = split;
  const project = useQuery({ ...projectQuery(fullPath), enabled: fullPath !== '' });
  const missing = rest === null && project.isError && isNotFound(project.error);
  // `/<project>/edit`: GitLab's General settings page, when no project has the whole path.
  const editedPath = missing ? settingsEditPath(split) : null;
  const edited = useQuery({ ...projectQuery(editedPath ?? ''), enabled: editedPath !== null });
  const tryGroup = missing && (editedPath === null || (edited.isError && isNotFound(edited.error)));
  const group = useQuery({ ...groupQuery(fullPath), enabled: tryGroup });

  if (fullPath === '') return <NotFoundPage />;
  if (project.isPending) return <PageLoading label="Loading" />;
  if (project.isSuccess) return <ProjectRoute project={project.data} rest={rest} />;
  if (!isNotFound(project.error)) return <PageError error={project.error} onRetry={() => void project.refetch()} />;
  if (editedPath !== null) {
    if (edited.isPending) return <PageLoading label="Loading" />;
    if (edited.isSuccess) return <ProjectRoute project={edited.data} rest={null} page={{ kind: 'settings', section: 'general' }} />;
    if (!isNotFound(edited.error)) return <PageError error={edited.error} onRetry={() => void edited.refetch()} />;
  }
  if (!tryGroup) return <NotFoundPage />;
  if (group.isPending) return <PageLoading label="Loading" />;
  if (group.isSuccess) return <GroupPage group={group.data} />;
  return isNotFound(group.error) ? <NotFoundPage /> : <PageError error={group.error} onRetry={() => void group.refetch()} />;
}
