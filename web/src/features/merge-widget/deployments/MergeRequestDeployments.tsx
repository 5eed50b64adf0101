import { LinkExternalIcon, PlayIcon, SquareFillIcon, SyncIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu, Button, Flash, IconButton, Link, useConfirm } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { TimeAgo } from '../../../components/TimeAgo';
import { deploymentActionMutation, deploymentKeys, environmentsStatusQuery, type EnvironmentTarget } from './api';
import { DEPLOYED_TEXT, DEPLOYMENT_ACTIONS, DEPLOYMENTS_FETCH_ERROR, DEPLOYMENTS_SHOWN, displayedStatus, impactedTitle, type DisplayedDeploymentStatus, type EnvironmentDeployment } from './deployment-status';
import styles from './Deployments.module.css';

/**
 * The merge widget's deployments: the environments the merge request's head reached (before the
 * merge, read until it is merged) or its merge commit reached (once merged). Each shows what
 * happened ("Deployed to review/x"), when, the app's link, and the actions the caller may take;
 * above three environments the list is collapsed behind "N environments impacted.".
 */
export function MergeRequestDeployments({ fullPath, iid, merged }: { fullPath: string; iid: number; merged: boolean }) {
  const target: EnvironmentTarget = merged ? 'merge_commit' : 'head';
  const list = useQuery(environmentsStatusQuery(fullPath, iid, target, true));
  const [error, setError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(false);
  if (list.isPending) return null;
  if (list.isError) {
    return (
      <Flash variant="danger" role="alert">
        {DEPLOYMENTS_FETCH_ERROR}
      </Flash>
    );
  }
  const deployments = list.data;
  if (deployments.length === 0) return null;
  const collapsed = deployments.length > DEPLOYMENTS_SHOWN && !expanded;
  return (
    <section aria-label={merged ? 'Post-merge deployments' : 'Deployments'} className={styles.deployments}>
      {error ? (
        <Flash variant="danger" role="alert" className={styles.flash}>
          {error}
        </Flash>
      ) : null}
      {deployments.length > DEPLOYMENTS_SHOWN ? (
        <div className={styles.summary}>
          <span>{impactedTitle(deployments.length)}</span>
          <Button size="small" variant="invisible" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
            {expanded ? 'Collapse' : 'View all environments.'}
          </Button>
        </div>
      ) : null}
      {collapsed ? null : (
        <ul className={styles.list}>
          {deployments.map((deployment) => (
            <DeploymentRow key={deployment.id} fullPath={fullPath} iid={iid} deployment={deployment} onError={setError} />
          ))}
        </ul>
      )}
    </section>
  );
}

const ICON_TONE: Record<DisplayedDeploymentStatus, string> = {
  success: 'success',
  failed: 'danger',
  running: 'accent',
  manual_deploy: 'muted',
  will_deploy: 'muted',
  canceled: 'muted',
  skipped: 'muted',
  blocked: 'attention',
};

function DeploymentRow({ fullPath, iid, deployment, onError }: { fullPath: string; iid: number; deployment: EnvironmentDeployment; onError: (message: string) => void }) {
  const status = displayedStatus(deployment);
  const confirm = useConfirm();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<keyof typeof DEPLOYMENT_ACTIONS | null>(null);
  const act = useMutation(deploymentActionMutation());
  const playPath = deployment.details.playable_build?.play_path;
  const redeployPath = deployment.details.playable_build?.retry_path ?? deployment.retry_url;

  async function run(kind: keyof typeof DEPLOYMENT_ACTIONS, path: string) {
    const messages = DEPLOYMENT_ACTIONS[kind];
    const ok = await confirm({
      title: messages.button,
      content: messages.confirm,
      confirmButtonContent: messages.button,
      confirmButtonType: kind === 'stop' ? 'danger' : 'primary',
      cancelButtonContent: 'Cancel',
    });
    if (!ok) return;
    setBusy(kind);
    try {
      const answer = await act.mutateAsync(path);
      // stopping answers where to look next (the environment), as GitLab's widget follows it
      if (answer?.redirect_url) navigate(new URL(answer.redirect_url, window.location.origin).pathname);
    } catch {
      onError(messages.error);
    } finally {
      setBusy(null);
      // GitLab fetches the deployments again after every action
      void queryClient.invalidateQueries({ queryKey: deploymentKeys.all(fullPath, iid) });
    }
  }

  const text = DEPLOYED_TEXT[status];
  return (
    <li className={styles.row} data-status={status}>
      <span className={`${styles.dot} ${styles[`tone-${ICON_TONE[status]}`] ?? ''}`} aria-hidden="true" />
      <span className={styles.info}>
        {text ? <span>{text} </span> : null}
        <RouterLink to={deployment.url} className={styles.name}>
          {deployment.name}
        </RouterLink>
        {deployment.deployed_at ? (
          <span className={styles.muted}>
            {' '}
            <TimeAgo date={deployment.deployed_at} />
          </span>
        ) : null}
      </span>
      <span className={styles.actions}>
        {status === 'manual_deploy' && playPath ? (
          <Button size="small" leadingVisual={PlayIcon} disabled={busy !== null} onClick={() => void run('deploy', playPath)}>
            {busy === 'deploy' ? 'This environment is being deployed' : DEPLOYMENT_ACTIONS.deploy.button}
          </Button>
        ) : null}
        {status === 'failed' && redeployPath ? (
          <Button size="small" leadingVisual={SyncIcon} disabled={busy !== null} onClick={() => void run('redeploy', redeployPath)}>
            {busy === 'redeploy' ? 'This environment is being re-deployed' : DEPLOYMENT_ACTIONS.redeploy.button}
          </Button>
        ) : null}
        {deployment.external_url && deployment.external_url_formatted && deployment.changes.length > 0 ? (
          <ChangedPagesMenu deployment={deployment} label={status === 'success' ? 'View app' : 'View latest app'} />
        ) : deployment.external_url && deployment.external_url_formatted ? (
          <Link href={deployment.external_url} target="_blank" rel="noopener noreferrer nofollow" className={styles.viewApp} title={status === 'success' ? undefined : 'View the latest successful deployment to this environment'}>
            {status === 'success' ? 'View app' : 'View latest app'} <LinkExternalIcon size={12} />
          </Link>
        ) : null}
        {deployment.stop_url ? (
          <IconButton
            size="small"
            icon={SquareFillIcon}
            variant="danger"
            aria-label={`${DEPLOYMENT_ACTIONS.stop.button}: ${deployment.name}`}
            title={DEPLOYMENT_ACTIONS.stop.button}
            disabled={busy !== null}
            onClick={() => void run('stop', deployment.stop_url!)}
          />
        ) : null}
      </span>
    </li>
  );
}

/**
 * 'View app' when the merge request changed pages the route map knows (GitLab's
 * DeploymentViewButton with changes): a menu of the app itself and each changed page, each
 * opening in a new tab at its address in the deployed environment.
 */
function ChangedPagesMenu({ deployment, label }: { deployment: EnvironmentDeployment; label: string }) {
  return (
    <ActionMenu>
      <ActionMenu.Button size="small" trailingVisual={LinkExternalIcon}>
        {label}
      </ActionMenu.Button>
      <ActionMenu.Overlay width="medium">
        <ActionList>
          <ActionList.LinkItem href={deployment.external_url!} target="_blank" rel="noopener noreferrer nofollow">
            {deployment.external_url_formatted}
          </ActionList.LinkItem>
          <ActionList.Divider />
          {deployment.changes.map((change) => (
            <ActionList.LinkItem key={change.path} href={change.external_url} target="_blank" rel="noopener noreferrer nofollow">
              {change.path}
              <ActionList.Description variant="block">{change.external_url}</ActionList.Description>
            </ActionList.LinkItem>
          ))}
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}
