import { MilestoneIcon, PencilIcon, SearchIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Dialog, Heading, IconButton, Label as Badge, Stack, TextInput, UnderlineNav } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Milestone } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { deleteMilestoneMutation, labelKeys, milestoneStateMutation, ownerMilestonesQuery, promoteMilestoneMutation, type LabelsOwner } from './api';
import { MilestoneDialog } from './MilestoneDialog';
import styles from './LabelsPages.module.css';

type Tab = 'active' | 'closed' | 'all';
const TABS: Record<Tab, string> = { active: 'Open', closed: 'Closed', all: 'All' };

/**
 * The milestones page of a project (`/<project>/-/milestones`: its own and its groups') or of a
 * group (`/groups/<group>/-/milestones`), as GitLab's: Open / Closed / All, search, and for
 * Reporters and above New, edit, close, reopen, delete, and Promote for a project milestone of a
 * project in a group. A project's group milestones link to their group's page.
 */
export function MilestonesPage({ owner, manage }: { owner: LabelsOwner; manage: boolean }) {
  const [tab, setTab] = useState<Tab>('active');
  const [search, setSearch] = useState('');
  const milestones = useQuery(ownerMilestonesQuery(owner, tab, search.trim()));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Milestone | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Milestone | null>(null);
  const [promoting, setPromoting] = useState<Milestone | null>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: labelKeys.all });
  const change = useMutation({ ...milestoneStateMutation(owner), onSuccess: done });
  const remove = useMutation({ ...deleteMilestoneMutation(owner), onSuccess: () => (done(), setDeleting(null)) });
  const promote = useMutation({ ...promoteMilestoneMutation(owner.kind === 'project' ? owner.project.id : 0), onSuccess: () => (done(), setPromoting(null)) });
  const groupPath = owner.kind === 'project' && owner.project.namespace.kind === 'group' ? owner.project.namespace.full_path : null;
  const own = (milestone: Milestone) => (owner.kind === 'project' ? milestone.project_id === owner.project.id : milestone.group_id === owner.group.id);

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <Heading as="h2" variant="small">
          Milestones
        </Heading>
        {manage ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New milestone
          </Button>
        ) : null}
      </div>
      <UnderlineNav aria-label="Milestone state">
        {(Object.keys(TABS) as Tab[]).map((key) => (
          <UnderlineNav.Item
            key={key}
            aria-current={tab === key ? 'page' : undefined}
            onSelect={(event) => {
              event.preventDefault();
              setTab(key);
            }}
            href="#"
          >
            {TABS[key]}
          </UnderlineNav.Item>
        ))}
      </UnderlineNav>
      <TextInput leadingVisual={SearchIcon} aria-label="Search milestones" placeholder="Search by title or description" value={search} onChange={(event) => setSearch(event.target.value)} />
      <FormError error={change.error} title="The milestone could not be changed." />
      {milestones.isPending ? (
        <div role="status" aria-label="Loading milestones">
          <SkeletonBox height="160px" />
        </div>
      ) : milestones.isError ? (
        <PageError title="The milestones could not be loaded." error={milestones.error} onRetry={() => void milestones.refetch()} />
      ) : milestones.data.length === 0 ? (
        <EmptyState
          icon={search.trim() ? SearchIcon : MilestoneIcon}
          title={search.trim() ? 'No milestones match your search' : tab === 'closed' ? 'No closed milestones' : 'Use milestones to track merge requests over a fixed period of time'}
        />
      ) : (
        <ul className={styles.list} aria-label="Milestones">
          {milestones.data.map((milestone) => (
            <li key={milestone.id} className={styles.row}>
              <div className={styles.main}>
                <strong>{milestone.title}</strong>
                <span className="fgMuted">
                  {owner.kind === 'project' && !own(milestone) && groupPath ? (
                    <RouterLink to={urls.groupMilestones(groupPath)}>Group milestone</RouterLink>
                  ) : owner.kind === 'project' ? (
                    'Project milestone'
                  ) : (
                    'Group milestone'
                  )}
                  {[milestone.start_date ? ` · starts ${milestone.start_date}` : '', milestone.due_date ? ` · due ${milestone.due_date}` : ''].join('')}
                </span>
                {milestone.description ? <span>{milestone.description}</span> : null}
              </div>
              {milestone.state === 'closed' ? <Badge variant="done">Closed</Badge> : milestone.expired ? <Badge variant="attention">Expired</Badge> : null}
              {owner.kind === 'project' ? (
                <RouterLink to={{ pathname: urls.mergeRequests(owner.project.path_with_namespace), search: new URLSearchParams({ milestone: milestone.title, state: 'all' }).toString() }}>
                  Merge requests
                </RouterLink>
              ) : null}
              {manage && own(milestone) ? (
                <span className={styles.actions}>
                  <Button size="small" onClick={() => change.mutate({ milestone, event: milestone.state === 'active' ? 'close' : 'activate' })}>
                    {milestone.state === 'active' ? 'Close milestone' : 'Reopen milestone'}
                  </Button>
                  {owner.kind === 'project' && groupPath ? (
                    <Button size="small" variant="invisible" onClick={() => setPromoting(milestone)}>
                      Promote
                    </Button>
                  ) : null}
                  <IconButton icon={PencilIcon} aria-label={`Edit ${milestone.title}`} variant="invisible" onClick={() => setEditing(milestone)} />
                  <IconButton icon={TrashIcon} aria-label={`Delete ${milestone.title}`} variant="invisible" onClick={() => setDeleting(milestone)} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? <MilestoneDialog owner={owner} milestone={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
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
      {promoting && groupPath ? (
        <Dialog
          title={`Promote ${promoting.title} to group milestone?`}
          onClose={() => setPromoting(null)}
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setPromoting(null) },
            { buttonType: 'primary', content: 'Promote Milestone', onClick: () => promote.mutate(promoting.id), loading: promote.isPending },
          ]}
        >
          <FormError error={promote.error} title="The milestone could not be promoted." />
          Promoting {promoting.title} will make it available for all projects inside {groupPath}. Existing project milestones with the same title will be merged. This action cannot be reversed.
        </Dialog>
      ) : null}
    </Stack>
  );
}
