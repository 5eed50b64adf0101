import { AlertIcon, InfoIcon } from '@primer/octicons-react';
import { Button, Flash, Link } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { t } from '@tributary/contracts/i18n';
import { mergeRequestGlobalId } from '@tributary/contracts/merge-widget';
import { useCallback, useEffect, useRef, useState } from 'react';
import { titleWithDraft } from '../../lib/draft-title';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { canCreateBranch, projectAccessLevel } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { mergeRequestKeys, updateMergeRequestMutation } from '../merge-requests';
import { sessionQuery } from '../session';
import { calloutsQuery, mergeWidgetQuery, widgetPollIntervalQuery } from './api';
import { ApprovalsSection } from './approvals';
import { BlockingMergeRequests } from './BlockingMergeRequests';
import { displayedState } from './merge-machine';
import { MergeChecks } from './MergeChecks';
import { MergeErrorBanner } from './MergeErrorBanner';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';
import { ClosedPanel } from './panels/ClosedPanel';
import { AutoMergeEnabledPanel, AutoMergeFailedPanel } from './panels/AutoMergePanels';
import { FailedToMergePanel } from './panels/FailedToMergePanel';
import { MergedPanel } from './panels/MergedPanel';
import { MergingPanel } from './panels/MergingPanel';
import { ArchivedPanel, CheckingPanel, MissingBranchPanel, NothingToMergePanel, PreparingPanel, ShaMismatchPanel } from './panels/SimplePanels';
import { PipelineContainer } from './PipelineContainer';
import { PIPELINE_DOCS, showSuggestPipeline, SUGGEST_PIPELINE_CALLOUT } from './pipeline-rules';
import { ReadyToMerge } from './ReadyToMerge';
import { SuggestPipeline } from './SuggestPipeline';
import { useRunPipeline } from './useRunPipeline';
import { ReportWidgets } from './reports/ReportWidgets';
import { followRebase, NOT_WATCHING, type RebaseWatch } from './rebase-watch';
import { useFallbackPolling } from './useFallbackPolling';
import { useMergeFlow } from './useMergeFlow';
import { useMergeStatusSubscription } from './useMergeStatusSubscription';
import { useTrainRemovalNotice } from './useTrainRemovalNotice';
import { withLivePosition } from './live-position';
import { ExposedArtifacts } from './artifacts/ExposedArtifacts';
import { deriveWidgetState, missingBranchType, SPECIAL_STATES, type WidgetStateInput } from './widget-state';
import { WidgetAlertFlash, type WidgetAlert } from './WidgetAlert';
import { widgetBanners } from './widget-banners';

/** What the live region says when the main area changes, so screen readers hear the new state. */
const ANNOUNCEMENTS: Record<string, string> = {
  merging: 'Merging',
  failedToMerge: MSG.mergeFailed,
  preparing: MSG.preparing,
  nothingToMerge: MSG.nothingToMerge,
  archived: MSG.archived,
  missingBranch: 'The branch does not exist.',
  checking: MSG.checking,
  shaMismatch: MSG.shaMismatch,
  readyToMerge: MSG.readyToMerge,
  autoMergeEnabled: 'Auto-merge enabled',
  autoMergeFailed: MSG.autoMergeFailed,
  merged: MSG.merged,
  closed: MSG.closed,
};

/**
 * The merge request widget: created when the Overview tab becomes active. It
 * reads MERGE_REQUEST_WIDGET_QUERY, refetches on every mergeRequestMergeStatusUpdated
 * message, and polls (Poll-Interval) only while that subscription is down.
 */
export function MergeWidget({ project, mr }: { project: Project; mr: MergeRequest }) {
  const fullPath = project.path_with_namespace;
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery()).data;
  const signedIn = Boolean(session);
  const canPush = signedIn && canCreateBranch(projectAccessLevel(project, session?.user.is_admin ?? false));
  const widget = useQuery(mergeWidgetQuery(fullPath, mr.iid));
  const { refetch } = widget;
  const [alert, setAlert] = useState<WidgetAlert | null>(null);
  const [dismissedError, setDismissedError] = useState<string | null>(null);
  const [lastKnownSha, setLastKnownSha] = useState<string | null>(null);
  const [rebaseWatch, setRebaseWatch] = useState<RebaseWatch>(NOT_WATCHING);

  const result = widget.data;
  const data = result?.project.mergeRequest ?? null;
  const widgetKey = mergeWidgetQuery(fullPath, mr.iid).queryKey;
  const channel = useMergeStatusSubscription(data?.id ?? mergeRequestGlobalId(mr.id), (message) => {
    // the merge train position the message carries shows at once; the refetch brings the rest
    if (message) queryClient.setQueryData(widgetKey, (cached) => withLivePosition(cached, message));
    void refetch();
  });
  useTrainRemovalNotice(data, setAlert);

  const stateInput: WidgetStateInput | null =
    result && data
      ? {
          state: data.state,
          mergeOngoing: data.mergeOngoing,
          detailedMergeStatus: data.detailedMergeStatus,
          commitCount: data.commitCount,
          archived: result.project.archived,
          sourceBranchExists: data.sourceBranchExists,
          targetBranchExists: data.targetBranchExists,
          canMerge: data.userPermissions.canMerge,
          diffHeadSha: data.diffHeadSha,
          lastKnownSha,
          autoMergeEnabled: data.autoMergeEnabled,
          onMergeTrain: data.mergeTrainCar !== null,
          preferredAutoMergeStrategy: data.preferredAutoMergeStrategy,
          mergeError: data.mergeError,
          clientMergeError: null,
        }
      : null;
  const serverState = stateInput ? deriveWidgetState(stateInput) : null;

  const invalidateMergeRequest = useCallback(() => void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.all }), [queryClient]);
  const flow = useMergeFlow({ projectId: project.id, iid: mr.iid, serverState, refetch, onAlert: setAlert, onMerged: invalidateMergeRequest });
  const derived = stateInput ? deriveWidgetState({ ...stateInput, clientMergeError: flow.clientMergeError }) : null;
  const shown = displayedState(flow.machine, derived);

  // The fallback poll; disabled while the failed-to-merge panel counts down. Its
  // interval is the server's Poll-Interval: the GraphQL answer's, else the widget endpoint's.
  const polling = channel === 'down' && widget.isSuccess && shown !== 'failedToMerge';
  const restInterval = useQuery({ ...widgetPollIntervalQuery(fullPath, mr.iid), enabled: polling && result?.pollIntervalMs === null });
  useFallbackPolling({ enabled: polling, headerMs: result?.pollIntervalMs ?? restInterval.data ?? null, data: result, fetchedAt: widget.dataUpdatedAt, refetch });

  // The head the page showed: the first one loaded, or the one a rebase started here produced.
  // Adjusted while rendering, not copied by an effect (React: "adjusting some state when a prop
  // changes"), so no render pairs fetched data with a head it has not taken yet. Each update
  // settles: the head is set once while unknown, and an accepted rebase ends its watch.
  if (data && lastKnownSha === null && data.diffHeadSha !== null) setLastKnownSha(data.diffHeadSha);
  if (data) {
    const next = followRebase(rebaseWatch, data, widget.dataUpdatedAt, lastKnownSha);
    if (next.watch !== rebaseWatch) setRebaseWatch(next.watch);
    if (next.acceptSha) setLastKnownSha(next.acceptSha);
  }

  // The header and tabs read the REST merge request: refresh it when the widget sees its state or head change.
  const seen = useRef<string | null>(null);
  const stamp = data ? `${data.state}:${data.diffHeadSha}:${data.title}` : null;
  useEffect(() => {
    if (stamp === null) return;
    if (seen.current !== null && seen.current !== stamp) invalidateMergeRequest();
    seen.current = stamp;
  }, [stamp, invalidateMergeRequest]);

  // the dismissed callouts are read only when the suggestion to add a pipeline could show
  const suggestionPossible = Boolean(data && !data.hasCi && data.state === 'opened' && data.userPermissions.pushToSourceBranch && mr.source_project_id === project.id);
  const callouts = useQuery({ ...calloutsQuery(), enabled: signedIn && suggestionPossible });
  // Once a new pipeline was asked for here, the retarget advice yields to it (GitLab's creation state).
  const [pipelineRequested, setPipelineRequested] = useState(false);
  const runPipeline = useRunPipeline({
    projectId: project.id,
    iid: mr.iid,
    onAlert: setAlert,
    onStarted: () => {
      setPipelineRequested(true);
      void refetch();
    },
  });

  const markReady = useMutation({
    ...updateMergeRequestMutation(project.id, mr.iid),
    onSuccess: () => {
      invalidateMergeRequest();
      void refetch();
    },
  });

  if (widget.isPending) {
    return (
      <section aria-label="Merge status" aria-busy="true" className={styles.widget}>
        <div className={styles.panel}>
          <SkeletonBox height="24px" />
        </div>
      </section>
    );
  }
  if (!result || !data) {
    return (
      <section aria-label="Merge status" className={styles.widget}>
        <Flash variant="danger" role="alert" full>
          <div className={styles.errorRow}>
            <span className={styles.bannerText}>{t(MSG.loadError)}</span>
            <Button size="small" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        </Flash>
      </section>
    );
  }

  const project_ = result.project;
  const ffOnly = project_.mergeRequestsFfOnlyEnabled || project_.mergeMethod === 'FF';
  const banners = widgetBanners({ alert, state: data.state, mergeError: data.mergeError, rebaseInProgress: data.rebaseInProgress, failedToMergeShown: shown === 'failedToMerge', dismissedError });

  const sameProject = mr.source_project_id === project.id;
  // GitLab's can_cancel_automatic_merge: who may merge, or the author
  const canCancelAutoMerge = data.userPermissions.canMerge || (session !== undefined && session !== null && session.user.id === mr.author?.id);
  const suggestPipeline =
    sameProject &&
    showSuggestPipeline({
      hasCi: data.hasCi,
      open: data.state === 'opened',
      canPushToSourceBranch: data.userPermissions.pushToSourceBranch,
      sourceBranchExists: data.sourceBranchExists,
      dismissed: callouts.data ? callouts.data.has(SUGGEST_PIPELINE_CALLOUT) : null,
    });

  function mainArea() {
    switch (shown) {
      case 'merging':
        return <MergingPanel />;
      case 'failedToMerge':
        return <FailedToMergePanel mergeError={flow.clientMergeError} onRefresh={flow.refreshAfterFailure} />;
      case 'preparing':
        return <PreparingPanel />;
      case 'nothingToMerge':
        return <NothingToMergePanel />;
      case 'archived':
        return <ArchivedPanel />;
      case 'missingBranch': {
        const type = missingBranchType(data!);
        return <MissingBranchPanel type={type} name={type === 'source' ? data!.sourceBranch : data!.targetBranch} />;
      }
      case 'checking':
        return <CheckingPanel />;
      case 'shaMismatch':
        return <ShaMismatchPanel fullPath={fullPath} iid={mr.iid} />;
      case 'merged':
        return (
          <MergedPanel
            data={data!}
            fullPath={fullPath}
            sourceProjectId={mr.source_project_id}
            targetProjectId={project.id}
            canPush={canPush}
            ffOnly={ffOnly}
            removingSourceBranch={flow.removingSourceBranch}
            deleteBranchError={flow.deleteBranchError}
            onBranchDeleted={() => void refetch()}
          />
        );
      case 'closed':
        return <ClosedPanel project={project} mr={mr} data={data!} signedIn={signedIn} />;
      case 'autoMergeFailed':
        return (
          <AutoMergeFailedPanel
            data={data!}
            projectId={project.id}
            iid={mr.iid}
            canCancel={canCancelAutoMerge}
            onCancelled={() => void refetch()}
            onRefresh={() => void refetch()}
            onAlert={setAlert}
          />
        );
      case 'readyToMerge':
      case 'autoMergeEnabled':
      case null:
        return null;
    }
  }

  return (
    <section aria-label="Merge status" className={styles.widget}>
      <div className={styles.body}>
        {data.allowCollaboration && data.state === 'opened' ? (
          <div className={`${styles.banner} ${styles.info}`}>
            <InfoIcon />
            <span className={styles.bannerText}>{t(MSG.collaboration)}</span>
          </div>
        ) : null}
        {suggestPipeline ? <SuggestPipeline sourceProjectPath={fullPath} sourceBranch={data.sourceBranch} /> : null}
        {data.state !== 'merged' ? (
          <PipelineContainer
            pipeline={data.headPipeline}
            hasCi={data.hasCi}
            retargeted={data.state === 'opened' && data.pipelineRetargetedWarning !== null && !pipelineRequested}
            branch={data.sourceBranch}
            onRunPipeline={runPipeline.run}
            runningPipeline={runPipeline.running}
            artifacts={data.headPipeline ? <ExposedArtifacts fullPath={fullPath} iid={mr.iid} pipeline={data.headPipeline} /> : null}
          />
        ) : null}
        {shown !== 'preparing' && shown !== 'nothingToMerge' ? (
          <ApprovalsSection projectId={project.id} iid={mr.iid} data={data} disableCommittersApproval={project_.mergeRequestsDisableCommittersApproval === true} me={session?.user.username ?? null} reviewerIds={mr.reviewers.map((reviewer) => reviewer.id)} authorId={mr.author?.id ?? null} onChanged={() => void refetch()} onLiveUpdate={() => void refetch({ cancelRefetch: false })} />
        ) : null}
        {banners.alert ? <WidgetAlertFlash alert={banners.alert} onDismiss={() => setAlert(null)} /> : null}
        {banners.mergeError ? <MergeErrorBanner mergeError={banners.mergeError} onDismiss={() => {
              setDismissedError(banners.mergeError);
              setAlert(null);
            }}
          /> : null}
        {data.mergePipelinesForkWarning && data.state === 'opened' ? (
          <div className={`${styles.banner} ${styles.warningBanner}`} role="note">
            <AlertIcon />
            <span className={styles.bannerText}>
              {t(MSG.forkMergePipelines)} <Link href={PIPELINE_DOCS.mergeRequestPipelines}>{t(MSG.learnMore)}</Link>
            </span>
          </div>
        ) : null}
        {data.state === 'opened' ? <BlockingMergeRequests blocking={data.blockingMergeRequests.nodes} /> : null}
        {data.headPipeline ? <ReportWidgets fullPath={fullPath} iid={mr.iid} pipeline={data.headPipeline} coverageDelta={data.pipelineCoverageDelta} jobsWithCoverage={data.buildsWithCoverage} /> : null}
        {shown !== null && SPECIAL_STATES.has(shown) ? (
          <div>{mainArea()}</div>
        ) : (
          <div>
            {shown === 'autoMergeEnabled' ? (
              <AutoMergeEnabledPanel data={data} fullPath={fullPath} projectId={project.id} iid={mr.iid} canCancel={canCancelAutoMerge} onCancelled={() => void refetch()} onAlert={setAlert} />
            ) : null}
            <MergeChecks
              checks={data.mergeabilityChecks}
              canMerge={data.userPermissions.canMerge}
              editPath={data.userPermissions.updateMergeRequest ? urls.mergeRequest(fullPath, mr.iid, 'edit') : null}
              onMarkReady={data.userPermissions.updateMergeRequest ? () => markReady.mutate({ title: titleWithDraft(data.title, false) }) : null}
              markingReady={markReady.isPending}
            />
            {/* with auto-merge set, its panel and the merge checks show, not the merge controls */}
            {data.commitCount > 0 && shown !== 'autoMergeEnabled' ? (
              <ReadyToMerge
                data={data}
                project={project_}
                projectId={project.id}
                state={shown}
                merging={flow.mergeInFlight}
                onMerge={flow.startMerge}
                onAutoMerge={flow.startAutoMerge}
                onRebaseScheduled={() => setRebaseWatch({ phase: 'watching', since: Date.now() })}
                onRefetch={() => void refetch()}
                onAlert={setAlert}
                onRunPipeline={runPipeline.run}
                runningPipeline={runPipeline.running}
              />
            ) : null}
          </div>
        )}
        {shown === 'merged' && data.mergePipeline ? <PipelineContainer pipeline={data.mergePipeline} hasCi retargeted={false} branch={data.targetBranch} postMerge /> : null}
      </div>
      <div className="visually-hidden" role="status" aria-live="polite">
        {shown ? t(ANNOUNCEMENTS[shown] ?? '') : ''}
      </div>
    </section>
  );
}
