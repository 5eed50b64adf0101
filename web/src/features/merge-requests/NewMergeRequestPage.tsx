import { ArrowRightIcon, GitPullRequestIcon } from '@primer/octicons-react';
import { Button, Flash, Heading, Select, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageError } from '../../components/PageError';
import type { Project } from '../../lib/gitlab-types';
import { parseNewMergeRequestParams, urls } from '../../lib/routes';
import { DEVELOPER } from '../../lib/permissions';
import { projectQuery } from '../projects/api';
import { userProjectLevel } from '../session/abilities';
import { useOptionalUser } from '../session/useCurrentUser';
import { compareQuery, createMergeRequestMutation, mergeRequestKeys } from './api';
import { BranchSelect } from './BranchSelect';
import { CompareTabs } from './CompareTabs';
import { MergeRequestForm, type MergeRequestFormValues } from './MergeRequestForm';
import styles from './MergeRequestPage.module.css';
import { defaultTitleAndDescription, initialFormValues } from './new-merge-request';

interface TargetChoice {
  id: number;
  pathWithNamespace: string;
  defaultBranch: string | null;
}

function targetChoices(project: Project): TargetChoice[] {
  const own = { id: project.id, pathWithNamespace: project.path_with_namespace, defaultBranch: project.default_branch };
  const upstream = project.forked_from_project;
  // A fork proposes to its upstream first, as GitLab does.
  return upstream ? [{ id: upstream.id, pathWithNamespace: upstream.path_with_namespace, defaultBranch: upstream.default_branch }, own] : [own];
}

function BranchChooser({ project, targets, target, sourceBranch, targetBranch, onChange }: {
  project: Project;
  targets: TargetChoice[];
  target: TargetChoice;
  sourceBranch: string;
  targetBranch: string;
  onChange: (next: { sourceBranch?: string; targetBranch?: string; targetProjectId?: number }) => void;
}) {
  return (
    <div className={styles.chooser}>
      <fieldset className={styles.chooserBox}>
        <legend>Source branch</legend>
        <span className={styles.projectName}>{project.path_with_namespace}</span>
        <BranchSelect projectId={project.id} value={sourceBranch} onChange={(branch) => onChange({ sourceBranch: branch })} label="Source branch" />
      </fieldset>
      <ArrowRightIcon className={styles.chooserArrow} aria-label="into" />
      <fieldset className={styles.chooserBox}>
        <legend>Target branch</legend>
        {targets.length > 1 ? (
          <Select aria-label="Target project" value={String(target.id)} onChange={(event) => onChange({ targetProjectId: Number(event.target.value), targetBranch: '' })}>
            {targets.map((choice) => (
              <Select.Option key={choice.id} value={String(choice.id)}>
                {choice.pathWithNamespace}
              </Select.Option>
            ))}
          </Select>
        ) : (
          <span className={styles.projectName}>{target.pathWithNamespace}</span>
        )}
        <BranchSelect projectId={target.id} value={targetBranch} onChange={(branch) => onChange({ targetBranch: branch })} label="Target branch" />
      </fieldset>
    </div>
  );
}

function CreateForm({ project, target, sourceBranch, targetBranch }: { project: Project; target: TargetChoice; sourceBranch: string; targetBranch: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isFork = target.id !== project.id;
  const targetProject = useQuery(projectQuery(target.id));
  const comparison = useQuery(compareQuery(project.id, targetBranch, sourceBranch, { fromProjectId: isFork ? target.id : undefined }));
  const [edited, setEdited] = useState<MergeRequestFormValues | null>(null);
  const user = useOptionalUser();
  const create = useMutation({
    ...createMergeRequestMutation(project.id),
    onSuccess: (mr) => {
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.lists() });
      void navigate(urls.mergeRequest(target.pathWithNamespace, mr.iid));
    },
  });

  const defaults = useMemo<MergeRequestFormValues | null>(() => {
    if (!comparison.data || !targetProject.data) return null;
    const values = { ...initialFormValues(targetProject.data, targetBranch), ...defaultTitleAndDescription(sourceBranch, comparison.data.commits) };
    // GitLab offers labels and a milestone to those who may set them on the target (Developers and above)
    return userProjectLevel(targetProject.data, user) >= DEVELOPER ? { ...values, labels: [], milestone: null } : values;
  }, [comparison.data, targetProject.data, sourceBranch, targetBranch, user]);

  if (comparison.isPending || targetProject.isPending) return <SkeletonBox height="320px" />;
  if (comparison.isError) return <PageError title="The branches could not be compared." error={comparison.error} onRetry={() => void comparison.refetch()} />;
  if (targetProject.isError) return <PageError error={targetProject.error} onRetry={() => void targetProject.refetch()} />;
  const values = edited ?? defaults!;

  return (
    <Stack gap="spacious">
      {comparison.data.commits.length === 0 ? (
        <Flash variant="warning">
          There are no commits on <strong>{sourceBranch}</strong> that are not already on <strong>{targetBranch}</strong>. A merge request would have nothing to merge.
        </Flash>
      ) : null}
      <MergeRequestForm
        targetProjectId={target.id}
        values={values}
        onChange={setEdited}
        isFork={isFork}
        showTargetBranch={false}
        submitLabel="Create merge request"
        submitting={create.isPending}
        error={create.error}
        errorTitle="The merge request could not be created."
        cancelTo={urls.mergeRequests(project.path_with_namespace)}
        onSubmit={() =>
          create.mutate({
            source_branch: sourceBranch,
            target_branch: values.targetBranch,
            title: values.title.trim(),
            description: values.description,
            assignee_ids: values.assignees.map((user) => user.id),
            reviewer_ids: values.reviewers.map((user) => user.id),
            ...(values.labels && values.labels.length > 0 ? { labels: values.labels.join(',') } : {}),
            ...(values.milestone ? { milestone_id: values.milestone.id } : {}),
            remove_source_branch: values.removeSourceBranch,
            squash: values.squash,
            ...(isFork ? { target_project_id: target.id, allow_collaboration: values.allowCollaboration } : {}),
          })
        }
      />
      <CompareTabs comparison={comparison.data} fullPath={project.path_with_namespace} projectId={project.id} sourceBranch={sourceBranch} />
    </Stack>
  );
}

/**
 * `/<path>/-/merge_requests/new?merge_request[source_branch]=…&merge_request[target_branch]=…`:
 * choose the branches (and, from a fork, the target project), see the commits and changes,
 * fill in the merge request and create it (POST /projects/:id/merge_requests).
 */
export function NewMergeRequestPage({ project }: { project: Project }) {
  const [search, setSearch] = useSearchParams();
  const params = parseNewMergeRequestParams(search);
  const targets = targetChoices(project);
  const target = targets.find((choice) => choice.id === params.target_project_id) ?? targets[0]!;
  const sourceBranch = params.source_branch ?? '';
  const targetBranch = params.target_branch ?? target.defaultBranch ?? '';
  const [confirmed, setConfirmed] = useState(Boolean(params.source_branch && params.target_branch));

  function change(next: { sourceBranch?: string; targetBranch?: string; targetProjectId?: number }) {
    const nextTarget = targets.find((choice) => choice.id === (next.targetProjectId ?? target.id)) ?? target;
    const url = urls.newMergeRequest(project.path_with_namespace, {
      source_branch: next.sourceBranch ?? sourceBranch,
      target_branch: next.targetBranch === '' ? (nextTarget.defaultBranch ?? '') : (next.targetBranch ?? targetBranch),
      target_project_id: nextTarget.id !== project.id ? nextTarget.id : undefined,
    });
    setSearch(new URLSearchParams(url.slice(url.indexOf('?') + 1)), { replace: true });
    setConfirmed(false);
  }

  const ready = sourceBranch !== '' && targetBranch !== '';
  const sameBranch = ready && target.id === project.id && sourceBranch === targetBranch;
  return (
    <Stack gap="normal">
      <Heading as="h2" variant="medium">
        <GitPullRequestIcon /> New merge request
      </Heading>
      <BranchChooser project={project} targets={targets} target={target} sourceBranch={sourceBranch} targetBranch={targetBranch} onChange={change} />
      {sameBranch ? <Flash variant="danger">The source and target branch are the same. Choose another branch to compare.</Flash> : null}
      {ready && !sameBranch && !confirmed ? (
        <div>
          <Button variant="primary" onClick={() => setConfirmed(true)}>
            Compare branches and continue
          </Button>
        </div>
      ) : null}
      {ready && !sameBranch && confirmed ? <CreateForm key={`${target.id}:${sourceBranch}:${targetBranch}`} project={project} target={target} sourceBranch={sourceBranch} targetBranch={targetBranch} /> : null}
    </Stack>
  );
}
