import { MilestoneIcon, PencilIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Dialog, FormControl, Heading, IconButton, Label as Badge, Stack, TextInput, UnderlineNav } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Milestone, Project } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { deleteMilestoneMutation, labelKeys, milestoneStateMutation, projectMilestonesQuery, saveMilestoneMutation } from './api';
import styles from './LabelsPages.module.css';

type Tab = 'active' | 'closed' | 'all';
const TABS: Record<Tab, string> = { active: 'Open', closed: 'Closed', all: 'All' };

function MilestoneDialog({ project, milestone, onClose }: { project: Project; milestone: Milestone | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(milestone?.title ?? '');
  const [description, setDescription] = useState(milestone?.description ?? '');
  const [startDate, setStartDate] = useState(milestone?.start_date ?? '');
  const [dueDate, setDueDate] = useState(milestone?.due_date ?? '');
  const save = useMutation({
    ...saveMilestoneMutation(project.id, milestone?.id ?? null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: labelKeys.all });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ title: title.trim(), description, start_date: startDate, due_date: dueDate });
  };
  return (
    <Dialog title={milestone ? 'Edit milestone' : 'New milestone'} onClose={onClose} width="medium">
      <form onSubmit={submit} className={styles.form} noValidate>
        <FormError error={save.error} title={milestone ? 'The milestone could not be saved.' : 'The milestone could not be created.'} />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Title</FormControl.Label>
          <TextInput block autoFocus value={title} onChange={(event) => setTitle(event.target.value)} />
        </FormControl>
        <FormControl>
          <FormControl.Label>Description</FormControl.Label>
          <TextInput block value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <div className={styles.colorRow}>
          <FormControl>
            <FormControl.Label>Start date</FormControl.Label>
            <TextInput type="date" value={startDate} onChange={(event) => setStartDate(event.target.value)} />
          </FormControl>
          <FormControl>
            <FormControl.Label>Due date</FormControl.Label>
            <TextInput type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />
          </FormControl>
        </div>
        <div className={styles.formActions}>
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={save.isPending} disabled={!title.trim()}>
            {milestone ? 'Save changes' : 'Create milestone'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** `/<project path>/-/milestones`: open, closed and all milestones; Reporters and above make, edit, close, reopen and delete them. */
export function ProjectMilestonesPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  const manage = canManageLabels(userProjectLevel(project, user));
  const [tab, setTab] = useState<Tab>('active');
  const milestones = useQuery(projectMilestonesQuery(project.id, tab));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Milestone | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Milestone | null>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: labelKeys.all });
  const change = useMutation({ ...milestoneStateMutation(project.id), onSuccess: done });
  const remove = useMutation({
    ...deleteMilestoneMutation(project.id),
    onSuccess: () => {
      done();
      setDeleting(null);
    },
  });

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <Heading as="h2" variant="small">Milestones</Heading>
        {manage ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New milestone
          </Button>
        ) : null}
      </div>
      <UnderlineNav aria-label="Milestone state">
        {(Object.keys(TABS) as Tab[]).map((key) => (
          <UnderlineNav.Item key={key} aria-current={tab === key ? 'page' : undefined} onSelect={(event) => { event.preventDefault(); setTab(key); }} href="#">
            {TABS[key]}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      <FormError error={change.error} title="The milestone could not be changed." />
      {milestones.isPending ? (
        <div role="status" aria-label="Loading milestones">
          <SkeletonBox height="160px" />
        </div>
      ) : milestones.isError ? (
        <PageError title="The milestones could not be loaded." error={milestones.error} onRetry={() => void milestones.refetch()} />
      ) : milestones.data.length === 0 ? (
        <EmptyState icon={MilestoneIcon} title={tab === 'closed' ? 'No closed milestones' : 'Use milestones to track merge requests over a fixed period of time'} />
      ) : (
        <ul className={styles.list} aria-label="Milestones">
          {milestones.data.map((milestone) => {
            const own = milestone.project_id === project.id;
            return (
              <li key={milestone.id} className={styles.row}>
                <div className={styles.main}>
                  <strong>{milestone.title}</strong>
                  <span className="fgMuted">
                    {[own ? 'Project milestone' : 'Group milestone', milestone.start_date ? `starts ${milestone.start_date}` : null, milestone.due_date ? `due ${milestone.due_date}` : null].filter(Boolean).join(' · ')}
                  </span>
                  {milestone.description ? <span>{milestone.description}</span> : null}
                </div>
                {milestone.state === 'closed' ? <Badge variant="done">Closed</Badge> : milestone.expired ? <Badge variant="attention">Expired</Badge> : null}
                <RouterLink to={{ pathname: urls.mergeRequests(project.path_with_namespace), search: new URLSearchParams({ milestone: milestone.title, state: 'all' }).toString() }}>Merge requests</RouterLink>
                {manage && own ? (
                  <span className={styles.actions}>
                    <Button size="small" onClick={() => change.mutate({ milestone, event: milestone.state === 'active' ? 'close' : 'activate' })}>
                      {milestone.state === 'active' ? 'Close milestone' : 'Reopen milestone'}
                    </Button>
                    <IconButton icon={PencilIcon} aria-label={`Edit ${milestone.title}`} variant="invisible" onClick={() => setEditing(milestone)} />
                    <IconButton icon={TrashIcon} aria-label={`Delete ${milestone.title}`} variant="invisible" onClick={() => setDeleting(milestone)} />
                  </span>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {editing ? <MilestoneDialog project={project} milestone={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <Dialog
          title={`Delete milestone ${deleting.title}?`}
          onClose={() => setDeleting(null)}
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setDeleting(null) },
            { buttonType: 'danger', content: 'Delete milestone', onClick: () => remove.mutate(deleting.id), loading: remove.isPending },
          ]}
        >
          <FormError error={remove.error} title="The milestone could not be deleted." />
          Merge requests with this milestone keep no milestone. This cannot be undone.
        </Dialog>
      ) : null}
    </Stack>
  );
}
