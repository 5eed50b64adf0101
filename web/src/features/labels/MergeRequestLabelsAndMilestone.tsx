import { MilestoneIcon } from '@primer/octicons-react';
import { Flash } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api-error';
import type { MergeRequest } from '../../lib/gitlab-types';
import { mergeRequestKeys, updateMergeRequestMutation } from '../merge-requests';
import { notesKeys } from '../notes';
import { projectLabelsQuery } from './api';
import { LabelList, labelName } from './LabelToken';
import { LabelsSelect } from './LabelsSelect';
import { MilestoneSelect } from './MilestoneSelect';

/**
 * The merge request sidebar's Labels and Milestone blocks: coloured tokens and the milestone,
 * each with its picker for those who may edit. Saving is PUT `labels` / `milestone_id`; its
 * answer is the merge request as it now is, and the Activity section reloads for the system
 * note the change left.
 */
export function MergeRequestLabelsAndMilestone({ projectId, mr, editable, blockClassName, headClassName }: {
  projectId: number;
  mr: MergeRequest;
  editable: boolean;
  blockClassName?: string;
  headClassName?: string;
}) {
  const queryClient = useQueryClient();
  const update = useMutation({
    ...updateMergeRequestMutation(projectId, mr.iid),
    onSuccess: (updated) => {
      queryClient.setQueryData(mergeRequestKeys.detail(projectId, mr.iid), updated);
      void queryClient.invalidateQueries({ queryKey: mergeRequestKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: notesKeys.discussions(projectId, mr.iid) });
    },
  });
  const onUpdate = update.mutate;
  const names = (mr.labels ?? []).map(labelName);
  const labels = useQuery({ ...projectLabelsQuery(projectId), enabled: names.length > 0 });
  const milestone = mr.milestone ?? null;
  return (
    <>
      {update.isError ? (
        <Flash variant="danger" role="alert">
          The merge request could not be updated: {errorMessage(update.error)}
        </Flash>
      ) : null}
      <section className={blockClassName} aria-label="Labels">
        <div className={headClassName}>
          <h2>Labels</h2>
          {editable ? <LabelsSelect projectId={projectId} selected={names} onChange={(next) => onUpdate({ labels: next.join(',') })} /> : null}
        </div>
        {names.length === 0 ? <span className="fgMuted">None</span> : <LabelList names={names} labels={labels.data} />}
      </section>
      <section className={blockClassName} aria-label="Milestone">
        <div className={headClassName}>
          <h2>Milestone</h2>
          {editable ? <MilestoneSelect projectId={projectId} selected={milestone} onChange={(next) => onUpdate({ milestone_id: next?.id ?? 0 })} /> : null}
        </div>
        {milestone ? (
          <span>
            <MilestoneIcon size={16} /> {milestone.title}
            {milestone.due_date ? <span className="fgMuted"> · due {milestone.due_date}</span> : null}
          </span>
        ) : (
          <span className="fgMuted">None</span>
        )}
      </section>
    </>
  );
}
