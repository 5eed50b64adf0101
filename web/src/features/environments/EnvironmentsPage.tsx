import { ChevronDownIcon, ChevronRightIcon, CloudIcon, FileDirectoryIcon, PlusIcon } from '@primer/octicons-react';
import { Button, CounterLabel, Flash, Stack, UnderlineNav, VisuallyHidden } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { DEVELOPER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { environmentListQuery, type Environment, type EnvironmentScope } from './api';
import { DeploymentCells } from './DeploymentCells';
import { EnvironmentActions } from './EnvironmentActions';
import { inFolders, nameInFolder } from './environment-folders';
import { NewEnvironmentDialog } from './NewEnvironmentDialog';
import styles from './Environments.module.css';
import { DataTable } from '../../components/DataTable';

const SCOPES: { scope: EnvironmentScope; label: string }[] = [
  { scope: 'available', label: 'Active' },
  { scope: 'stopped', label: 'Stopped' },
];

/**
 * `/<project>/-/environments`: the project's environments, active or stopped (`?scope=`), each
 * with its last deployment and its actions; `review/*` environments grouped in folders, as in
 * GitLab.
 */
export function EnvironmentsPage({ project }: { project: Project }) {
  const fullPath = project.path_with_namespace;
  const user = useOptionalUser();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const scope: EnvironmentScope = search.get('scope') === 'stopped' ? 'stopped' : 'available';
  const page = pageFromSearch(search);
  const list = useQuery(environmentListQuery(project.id, scope, page));
  const available = useQuery(environmentListQuery(project.id, 'available', 1));
  const stopped = useQuery(environmentListQuery(project.id, 'stopped', 1));
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canWrite = user !== null && userProjectLevel(project, user) >= DEVELOPER;
  const counts: Record<EnvironmentScope, number | null | undefined> = { available: available.data?.pageInfo.total, stopped: stopped.data?.pageInfo.total };

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <div className={styles.tabs}>
        <UnderlineNav aria-label="Environments">
          {SCOPES.map((item) => (
            <UnderlineNav.Item
              key={item.scope}
              href={`?scope=${item.scope}`}
              aria-current={scope === item.scope ? 'page' : undefined}
              counter={counts[item.scope] ?? undefined}
              onSelect={(event) => {
                event.preventDefault();
                setSearch(new URLSearchParams({ scope: item.scope }));
              }}
            >
              {item.label}
            </UnderlineNav.Item>
          ))}
        </UnderlineNav>
        </div>
        {canWrite ? (
          <Button leadingVisual={PlusIcon} onClick={() => setCreating(true)}>
            New environment
          </Button>
        ) : null}
      </div>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      {list.isPending ? (
        <SkeletonBox height="200px" />
      ) : list.isError ? (
        <PageError title="The environments could not be loaded." error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.items.length === 0 ? (
        scope === 'stopped' ? (
          <EmptyState icon={CloudIcon} title="You don't have any stopped environments." description="Stopped environments are listed here." />
        ) : (
          <EmptyState
            icon={CloudIcon}
            title="Get started with environments"
            description="Environments are places where code gets deployed, such as staging or production. A job with an environment creates one when it runs."
          />
        )
      ) : (
        <>
          <DataTable label={scope === 'stopped' ? 'Stopped environments' : 'Active environments'} columns={['Environment', 'Deployment', 'Job', 'Commit', 'Updated', <VisuallyHidden>Actions</VisuallyHidden>]}>
            {inFolders(list.data.items).map((item) =>
              item.kind === 'folder' ? (
                <FolderRows key={`folder:${item.name}`} projectId={project.id} fullPath={fullPath} name={item.name} environments={item.environments} canWrite={canWrite} onError={setError} />
              ) : (
                <EnvironmentRow key={item.environment.id} projectId={project.id} fullPath={fullPath} environment={item.environment} canWrite={canWrite} onError={setError} />
              ),
            )}
          </DataTable>
          <PaginationNav
            pageInfo={list.data.pageInfo}
            onPageChange={(next) => setSearch(new URLSearchParams({ scope, page: String(next) }))}
          />
        </>
      )}
      {creating ? (
        <NewEnvironmentDialog projectId={project.id} onClose={() => setCreating(false)} onCreated={(environment) => navigate(urls.environment(fullPath, environment.id))} />
      ) : null}
    </Stack>
  );
}

interface RowProps {
  projectId: number;
  fullPath: string;
  canWrite: boolean;
  onError: (message: string) => void;
}

function EnvironmentRow({ projectId, fullPath, environment, canWrite, onError, nested = false }: RowProps & { environment: Environment; nested?: boolean }) {
  return (
    <tr>
      <td className={nested ? styles.nested : undefined}>
        <RouterLink to={urls.environment(fullPath, environment.id)}>{nested ? nameInFolder(environment.name) : environment.name}</RouterLink>
        {environment.state === 'stopping' ? <span className={styles.muted}> (stopping)</span> : null}
      </td>
      <DeploymentCells fullPath={fullPath} deployment={environment.last_deployment} />
      <td className={styles.actions}>
        <EnvironmentActions projectId={projectId} environment={environment} canWrite={canWrite} onError={onError} />
      </td>
    </tr>
  );
}

/** A folder's row, and its environments' rows while it is open (folders start closed, as in GitLab). */
function FolderRows({ name, environments, ...row }: RowProps & { name: string; environments: Environment[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr className={styles.folderRow}>
        <td colSpan={6}>
          <button type="button" className={styles.folderButton} aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? <ChevronDownIcon aria-hidden="true" /> : <ChevronRightIcon aria-hidden="true" />}
            <FileDirectoryIcon aria-hidden="true" />
            {name}
            <CounterLabel>{environments.length}</CounterLabel>
          </button>
        </td>
      </tr>
      {open ? environments.map((environment) => <EnvironmentRow key={environment.id} {...row} environment={environment} nested />) : null}
    </>
  );
}
