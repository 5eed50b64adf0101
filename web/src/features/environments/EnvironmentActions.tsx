import { LinkExternalIcon, SquareFillIcon, SyncIcon, TrashIcon } from '@primer/octicons-react';
import { IconButton, useConfirm } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteEnvironmentMutation, environmentKeys, redeployMutation, stopEnvironmentMutation, type Environment } from './api';

/** GitLab's messages when an environment's action fails. */
export const STOP_FAILED = 'Something went wrong while stopping this environment. Please try again.';
export const DEPLOY_FAILED = 'Something went wrong while deploying this environment. Please try again.';
export const DELETE_FAILED = 'An error occurred while deleting the environment. Check if the environment stopped; if not, stop it and try again.';

/**
 * An environment's actions, as GitLab's environments list offers them: open its URL, re-deploy its
 * last deployment (its job runs again), stop it (its on_stop job runs) and, once stopped, delete
 * it. Each asks first; a failure is reported through `onError` with GitLab's message.
 */
export function EnvironmentActions({
  projectId,
  environment,
  canWrite,
  onError,
  onDeleted,
}: {
  projectId: number;
  environment: Environment;
  /** Developers and above: the server checks the branch rules too. */
  canWrite: boolean;
  onError: (message: string) => void;
  onDeleted?: () => void;
}) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: environmentKeys.all(projectId) });
  const stop = useMutation({ ...stopEnvironmentMutation(projectId), onSuccess: refresh, onError: () => onError(STOP_FAILED) });
  const redeploy = useMutation({ ...redeployMutation(projectId), onSuccess: refresh, onError: () => onError(DEPLOY_FAILED) });
  const remove = useMutation({
    ...deleteEnvironmentMutation(projectId),
    onSuccess: () => {
      refresh();
      onDeleted?.();
    },
    onError: () => onError(DELETE_FAILED),
  });
  const job = environment.last_deployment?.deployable ?? null;
  const available = environment.state === 'available';
  return (
    <span style={{ display: 'inline-flex', gap: 4 }}>
      {environment.external_url ? (
        <IconButton
          as="a"
          href={environment.external_url}
          target="_blank"
          rel="noopener noreferrer"
          icon={LinkExternalIcon}
          size="small"
          aria-label={`Open ${environment.name}`}
          title="Open live environment"
        />
      ) : null}
      {canWrite && available && job ? (
        <IconButton
          icon={SyncIcon}
          size="small"
          aria-label={`Re-deploy ${environment.name}`}
          title="Re-deploy to environment"
          disabled={redeploy.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: `Re-deploy environment ${environment.name}?`,
              content: `The job ${job.name} of the last deployment runs again.`,
              confirmButtonContent: 'Re-deploy',
              cancelButtonContent: 'Cancel',
            });
            if (ok) redeploy.mutate(job.id);
          }}
        />
      ) : null}
      {canWrite && available ? (
        <IconButton
          icon={SquareFillIcon}
          size="small"
          aria-label={`Stop ${environment.name}`}
          title="Stop environment"
          disabled={stop.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: `Stop ${environment.name}?`,
              content: 'Are you sure you want to stop this environment? Its stop action runs, where its deployment has one.',
              confirmButtonContent: 'Stop environment',
              confirmButtonType: 'danger',
              cancelButtonContent: 'Cancel',
            });
            if (ok) stop.mutate(environment.id);
          }}
        />
      ) : null}
      {canWrite && environment.state === 'stopped' ? (
        <IconButton
          icon={TrashIcon}
          size="small"
          aria-label={`Delete ${environment.name}`}
          title="Delete environment"
          disabled={remove.isPending}
          onClick={async () => {
            const ok = await confirm({
              title: `Delete ${environment.name}?`,
              content: 'Deleting the environment deletes its deployments. This cannot be undone.',
              confirmButtonContent: 'Delete environment',
              confirmButtonType: 'danger',
              cancelButtonContent: 'Cancel',
            });
            if (ok) remove.mutate(environment.id);
          }}
        />
      ) : null}
    </span>
  );
}
