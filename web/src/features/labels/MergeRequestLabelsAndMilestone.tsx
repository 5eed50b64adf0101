import { MilestoneIcon } from '@primer/octicons-react';
import { useQuery } from '@tanstack/react-query';
import type { MergeRequest } from '../../lib/gitlab-types';
import type { UpdateMergeRequestInput } from '../merge-requests/api';
import { projectLabelsQuery } from './api';
import { LabelList, labelName } from './LabelToken';
import { LabelsSelect } from './LabelsSelect';
import { MilestoneSelect } from './MilestoneSelect';

/**
 * The merge request sidebar's Labels and Milestone blocks: coloured tokens and the milestone,
 * each with its picker for those who may edit. Saving goes through the sidebar's update
 * (`labels`, `milestone_id`), whose answer is the merge request as it now is.
 */
export function MergeRequestLabelsAndMilestone({ projectId, mr, editable, onUpdate, blockClassName, headClassName }: {
  projectId: number;
  mr: MergeRequest;
  editable: boolean;
  onUpdate: (input: UpdateMergeRequestInput) => void;
  blockClassName?: string;
  headClassName?: string;
}) {
  const names = (mr.labels ?? []).map(labelName);
  const labels = useQuery({ ...projectLabelsQuery(projectId), enabled: names.length > 0 });
  const milestone = mr.milestone ?? null;
  return (
    <>
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
