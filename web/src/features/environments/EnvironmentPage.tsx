import { CloudIcon, LinkExternalIcon } from '@primer/octicons-react';
import { Flash, Heading, Label, LinkButton as PrimerLinkButton, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PaginationNav } from '../../components/PaginationNav';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import type { Project } from '../../lib/gitlab-types';
import { pageFromSearch } from '../../lib/pagination';
import { DEVELOPER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { deploymentsQuery, environmentQuery, type Environment } from './api';
import { DeploymentCells } from './DeploymentCells';
import { EnvironmentActions } from './EnvironmentActions';
import styles from './Environments.module.css';
import { DataTable } from '../../components/DataTable';

/** `/<project>/-/environments/:id`: one environment, its actions, and its deployments, newest first. */
export function EnvironmentPage({ project, id }: { project: Project; id: number }) {
  const environment = useQuery(environmentQuery(project.id, id));
  useDocumentTitle(environment.data ? [environment.data.name, 'Environments', project.name_with_namespace] : null);
  if (environment.isPending) return <SkeletonBox height="240px" />;
  if (environment.isError) return <PageError title="The environment could not be loaded." error={environment.error} onRetry={() => void environment.refetch()} />;
  return <EnvironmentDetails project={project} environment={environment.data} />;
}

function EnvironmentDetails({ project, environment }: { project: Project; environment: Environment }) {
  const fullPath = project.path_with_namespace;
  const user = useOptionalUser();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const page = pageFromSearch(search);
  const deployments = useQuery(deploymentsQuery(project.id, environment.name, page));
  const [error, setError] = useState<string | null>(null);
  const canWrite = user !== null && userProjectLevel(project, user) >= DEVELOPER;
  return (
    <Stack gap="normal">
      <div className={styles.header}>
        <Stack direction="horizontal" gap="condensed" align="center">
          <Heading as="h2" variant="medium">
            {environment.name}
          </Heading>
          <Label variant={environment.state === 'available' ? 'success' : 'secondary'}>{environment.state === 'available' ? 'Active' : environment.state === 'stopping' ? 'Stopping' : 'Stopped'}</Label>
          <Label variant="secondary">{environment.tier}</Label>
        </Stack>
        <Stack direction="horizontal" gap="condensed" align="center">
          {environment.external_url ? (
            <PrimerLinkButton href={environment.external_url} target="_blank" rel="noopener noreferrer" leadingVisual={LinkExternalIcon}>
              Open
            </PrimerLinkButton>
          ) : null}
          <EnvironmentActions
            projectId={project.id}
            environment={{ ...environment, external_url: null }}
            canWrite={canWrite}
            onError={setError}
            onDeleted={() => navigate(urls.environments(fullPath, 'stopped'))}
          />
        </Stack>
      </div>
      {error ? (
        <Flash variant="danger" role="alert">
          {error}
        </Flash>
      ) : null}
      {deployments.isPending ? (
        <SkeletonBox height="200px" />
      ) : deployments.isError ? (
        <PageError title="The deployments could not be loaded." error={deployments.error} onRetry={() => void deployments.refetch()} />
      ) : deployments.data.items.length === 0 ? (
        <EmptyState icon={CloudIcon} title="You don't have any deployments right now." description="Define environments in the deploy stage(s) in .gitlab-ci.yml to track deployments here." />
      ) : (
        <>
          <DataTable label="Deployments" columns={['Status', 'Job', 'Commit', 'Updated']}>
            {deployments.data.items.map((deployment) => (
              <tr key={deployment.id}>
                <DeploymentCells fullPath={fullPath} deployment={deployment} />
              </tr>
            ))}
          </DataTable>
          <PaginationNav pageInfo={deployments.data.pageInfo} onPageChange={(next) => setSearch(new URLSearchParams({ page: String(next) }))} />
        </>
      )}
    </Stack>
  );
}
