import { Button, Checkbox, FormControl, Stack, TextInput } from '@primer/react';
import { t } from '@tributary/contracts';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LinkButton } from '../../components/AppLink';
import { EntityAvatar } from '../../components/EntityAvatar';
import { fieldError, FormError } from '../../components/FormError';
import { isDraftTitle, titleWithDraft } from '../../lib/draft-title';
import { useQuery } from '@tanstack/react-query';
import type { Milestone, UserBasic } from '../../lib/gitlab-types';
import { LabelList, LabelsSelect, MilestoneSelect, projectLabelsQuery } from '../labels';
import { BranchSelect } from './BranchSelect';
import { DescriptionField } from './DescriptionField';
import { MERGE_OPTION } from './merge-options';
import styles from './MergeRequestForm.module.css';
import { UsersSelect } from './UserSelect';

/** GitLab's message for a required field left empty (its form field errors). */
export const TITLE_REQUIRED = 'This field is required.';

export interface MergeRequestFormValues {
  title: string;
  description: string;
  assignees: UserBasic[];
  reviewers: UserBasic[];
  targetBranch: string;
  removeSourceBranch: boolean;
  squash: boolean;
  allowCollaboration: boolean;
  /** label titles; the new merge request form sets them (absent: the form shows no Labels field) */
  labels?: string[];
  /** absent: the form shows no Milestone field */
  milestone?: Milestone | null;
}

function People({ users }: { users: UserBasic[] }) {
  if (users.length === 0) return null;
  return (
    <ul className={styles.people}>
      {users.map((user) => (
        <li key={user.id}>
          <EntityAvatar name={user.name} id={user.id} src={user.avatar_url} size={20} square={false} /> {user.name}
        </li>
      ))}
    </ul>
  );
}

/** The form's Labels and Milestone fields (GitLab's new merge request form has both beside the people). */
function LabelsAndMilestone({ projectId, labels, milestone, onLabels, onMilestone }: {
  projectId: number;
  labels: string[];
  milestone: Milestone | null;
  onLabels: (labels: string[]) => void;
  onMilestone: (milestone: Milestone | null) => void;
}) {
  const known = useQuery({ ...projectLabelsQuery(projectId), enabled: labels.length > 0 });
  return (
    <>
      <div className={styles.field} role="group" aria-label="Labels">
        <span className={styles.label}>Labels</span>
        <LabelsSelect projectId={projectId} selected={labels} onChange={onLabels} anchor={{ text: labels.length > 0 ? `${labels.length} selected` : 'None', label: 'Select labels', dropdown: true }} />
        {labels.length > 0 ? <LabelList names={labels} labels={known.data} /> : null}
      </div>
      <div className={styles.field} role="group" aria-label="Milestone">
        <span className={styles.label}>Milestone</span>
        <MilestoneSelect projectId={projectId} selected={milestone} onChange={onMilestone} anchor={{ text: milestone?.title ?? 'No milestone', label: 'Select milestone', dropdown: true }} />
      </div>
    </>
  );
}

/**
 * The fields of a new or edited merge request: title with "Mark as draft" (the `Draft:`
 * prefix), description, assignees, reviewers, labels and milestone (when the values carry them:
 * the new form, for those who may set them), target branch and the merge options.
 */
export function MergeRequestForm({
  targetProjectId,
  values,
  onChange,
  isFork,
  submitLabel,
  submitting,
  error,
  errorTitle,
  onSubmit,
  cancelTo,
  aside,
  showTargetBranch = true,
}: {
  targetProjectId: number;
  values: MergeRequestFormValues;
  onChange: (values: MergeRequestFormValues) => void;
  /** The source is a fork: offer "Allow commits from members who can merge to the target branch". */
  isFork: boolean;
  submitLabel: string;
  submitting: boolean;
  error: unknown;
  errorTitle: string;
  onSubmit: () => void;
  cancelTo: string;
  aside?: ReactNode;
  /** The new merge request page chooses the target above the form. */
  showTargetBranch?: boolean;
}) {
  const set = <K extends keyof MergeRequestFormValues>(key: K, value: MergeRequestFormValues[K]) => onChange({ ...values, [key]: value });
  // An empty title is said under the field once the form is sent, as GitLab's form does
  // (the button stays enabled: a disabled one would not say why).
  const [tried, setTried] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  const titleMissing = titleWithDraft(values.title, false).trim() === '';
  const titleError = tried && titleMissing ? t(TITLE_REQUIRED) : fieldError(error, 'title');
  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (titleMissing) {
      titleInput.current?.focus();
      return;
    }
    onSubmit();
  }
  return (
    <form onSubmit={submit} className={styles.form} noValidate>
      <FormError error={error} title={errorTitle} />
      <FormControl required>
        <FormControl.Label>Title</FormControl.Label>
        <TextInput ref={titleInput} value={values.title} onChange={(event) => set('title', event.target.value)} block validationStatus={titleError ? 'error' : undefined} />
        {titleError ? <FormControl.Validation variant="error">{titleError}</FormControl.Validation> : null}
      </FormControl>
      <FormControl>
        <Checkbox checked={isDraftTitle(values.title)} onChange={(event) => set('title', titleWithDraft(values.title, event.target.checked))} />
        <FormControl.Label>Mark as draft</FormControl.Label>
        <FormControl.Caption>Drafts cannot be merged until marked ready.</FormControl.Caption>
      </FormControl>
      <DescriptionField value={values.description} onChange={(description) => set('description', description)} error={fieldError(error, 'description')} project={targetProjectId} />
      <div className={styles.grid}>
        <div className={styles.field}>
          <span className={styles.label}>
            Assignees
          </span>
          <UsersSelect label="Assignees" projectId={targetProjectId} selected={values.assignees} onChange={(users) => set('assignees', users)} />
          <People users={values.assignees} />
        </div>
        <div className={styles.field}>
          <span className={styles.label}>Reviewers</span>
          <UsersSelect label="Reviewers" projectId={targetProjectId} selected={values.reviewers} onChange={(users) => set('reviewers', users)} />
          <People users={values.reviewers} />
        </div>
        {values.labels !== undefined && values.milestone !== undefined ? (
          <LabelsAndMilestone
            projectId={targetProjectId}
            labels={values.labels}
            milestone={values.milestone}
            onLabels={(labels) => set('labels', labels)}
            onMilestone={(milestone) => set('milestone', milestone)}
          />
        ) : null}
        {showTargetBranch ? (
          <div className={styles.field}>
            <span className={styles.label}>Target branch</span>
            <BranchSelect projectId={targetProjectId} value={values.targetBranch} onChange={(branch) => set('targetBranch', branch)} label="Target branch" />
          </div>
        ) : null}
      </div>
      <fieldset className={styles.options}>
        <legend className={styles.label}>Merge options</legend>
        <FormControl>
          <Checkbox checked={values.removeSourceBranch} onChange={(event) => set('removeSourceBranch', event.target.checked)} />
          <FormControl.Label>{t(MERGE_OPTION.deleteSourceBranch)}</FormControl.Label>
        </FormControl>
        <FormControl>
          <Checkbox checked={values.squash} onChange={(event) => set('squash', event.target.checked)} />
          <FormControl.Label>{t(MERGE_OPTION.squash)}</FormControl.Label>
        </FormControl>
        {isFork ? (
          <FormControl>
            <Checkbox checked={values.allowCollaboration} onChange={(event) => set('allowCollaboration', event.target.checked)} />
            <FormControl.Label>Allow commits from members who can merge to the target branch</FormControl.Label>
          </FormControl>
        ) : null}
      </fieldset>
      {aside}
      <Stack direction="horizontal" gap="condensed">
        <Button type="submit" variant="primary" loading={submitting} disabled={values.targetBranch === ''}>
          {submitLabel}
        </Button>
        <LinkButton to={cancelTo}>Cancel</LinkButton>
      </Stack>
    </form>
  );
}
