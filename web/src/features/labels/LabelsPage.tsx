import { BellIcon, BellSlashIcon, PencilIcon, SearchIcon, TagIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Dialog, Heading, IconButton, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Label } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { useOptionalUser } from '../session/useCurrentUser';
import { deleteLabelMutation, labelKeys, labelSubscriptionMutation, ownerLabelsQuery, promoteLabelMutation, type LabelsOwner } from './api';
import { LabelDialog } from './LabelDialog';
import { LabelToken } from './LabelToken';
import styles from './LabelsPages.module.css';

/** The group whose labels a project is offered (its namespace), when it has one. */
const projectGroupPath = (owner: LabelsOwner) => (owner.kind === 'project' && owner.project.namespace.kind === 'group' ? owner.project.namespace.full_path : null);

/**
 * The labels page of a project (`/<project>/-/labels`: its own labels and its groups') or of a
 * group (`/groups/<group>/-/labels`: the group's own), as GitLab's: search, New label, edit and
 * delete for those who may manage labels (Reporters and above), Promote to group label for a
 * project label of a project in a group, and Subscribe / Unsubscribe for anyone signed in. A
 * project's inherited labels link to their group's labels page, where they are managed.
 */
export function LabelsPage({ owner, manage }: { owner: LabelsOwner; manage: boolean }) {
  const user = useOptionalUser();
  const [search, setSearch] = useState('');
  const labels = useQuery(ownerLabelsQuery(owner, search.trim()));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Label | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Label | null>(null);
  const [promoting, setPromoting] = useState<Label | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: labelKeys.all });
  const remove = useMutation({ ...deleteLabelMutation(owner), onSuccess: () => (refresh(), setDeleting(null)) });
  const subscription = useMutation({ ...labelSubscriptionMutation(owner), onSuccess: refresh });
  const promote = useMutation({ ...promoteLabelMutation(owner.kind === 'project' ? owner.project.id : 0), onSuccess: () => (refresh(), setPromoting(null)) });
  const groupPath = projectGroupPath(owner);
  const mergeRequestsPath = owner.kind === 'project' ? urls.mergeRequests(owner.project.path_with_namespace) : null;
  const ownLabel = (label: Label) => owner.kind === 'group' || label.is_project_label === true;

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <Heading as="h2" variant="small">
          Labels
        </Heading>
        {manage ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New label
          </Button>
        ) : null}
      </div>
      <TextInput leadingVisual={SearchIcon} aria-label="Search labels" placeholder="Filter" value={search} onChange={(event) => setSearch(event.target.value)} />
      <FormError error={subscription.error} title="The subscription could not be changed." />
      {labels.isPending ? (
        <div role="status" aria-label="Loading labels">
          <SkeletonBox height="160px" />
        </div>
      ) : labels.isError ? (
        <PageError title="The labels could not be loaded." error={labels.error} onRetry={() => void labels.refetch()} />
      ) : labels.data.length === 0 ? (
        search.trim() ? (
          <EmptyState icon={SearchIcon} title="No labels with such name or description" />
        ) : (
          <EmptyState icon={TagIcon} title="Use labels to divide up your merge requests" description="Labels can be applied to merge requests to filter them." />
        )
      ) : (
        <ul className={styles.list} aria-label="Labels">
          {labels.data.map((label) => (
            <li key={label.id} className={styles.row}>
              <div className={styles.main}>
                <span>
                  <LabelToken label={label} />
                </span>
                {label.description ? <span className="fgMuted">{label.description}</span> : null}
              </div>
              {owner.kind === 'project' ? (
                label.is_project_label || !groupPath ? (
                  <span className="fgMuted">{label.is_project_label ? 'Project label' : 'Group label'}</span>
                ) : (
                  <RouterLink to={urls.groupLabels(groupPath)}>Group label</RouterLink>
                )
              ) : null}
              {mergeRequestsPath ? (
                <RouterLink to={{ pathname: mergeRequestsPath, search: new URLSearchParams({ labels: label.name }).toString() }}>{label.open_merge_requests_count ?? 0} open merge requests</RouterLink>
              ) : (
                <span className="fgMuted">{label.open_merge_requests_count ?? 0} open merge requests</span>
              )}
              <span className={manage ? `${styles.actions} ${styles.alignedActions}` : styles.actions}>
                {user ? (
                  <Button
                    size="small"
                    leadingVisual={label.subscribed ? BellSlashIcon : BellIcon}
                    aria-label={`${label.subscribed ? 'Unsubscribe from' : 'Subscribe to'} ${label.name}`}
                    onClick={() => subscription.mutate({ label, subscribe: !label.subscribed })}
                    disabled={subscription.isPending}
                  >
                    {label.subscribed ? 'Unsubscribe' : 'Subscribe'}
                  </Button>
                ) : null}
                {manage && ownLabel(label) ? (
                  <>
                    {owner.kind === 'project' && groupPath ? (
                      <Button size="small" variant="invisible" onClick={() => setPromoting(label)}>
                        Promote to group label
                      </Button>
                    ) : null}
                    <IconButton icon={PencilIcon} aria-label={`Edit ${label.name}`} variant="invisible" onClick={() => setEditing(label)} />
                    <IconButton icon={TrashIcon} aria-label={`Delete ${label.name}`} variant="invisible" onClick={() => setDeleting(label)} />
                  </>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {editing ? <LabelDialog owner={owner} label={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {deleting ? (
        <Dialog
          title={`Delete label: ${deleting.name}?`}
          onClose={() => setDeleting(null)}
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setDeleting(null) },
            { buttonType: 'danger', content: 'Delete label', onClick: () => remove.mutate(deleting.id), loading: remove.isPending },
          ]}
        >
          <FormError error={remove.error} title="The label could not be deleted." />
          The label is removed from every merge request that has it. This cannot be undone.
        </Dialog>
      ) : null}
      {promoting && groupPath ? (
        <Dialog
          title={`Promote label ${promoting.name} to Group Label?`}
          onClose={() => setPromoting(null)}
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setPromoting(null) },
            { buttonType: 'primary', content: 'Promote', onClick: () => promote.mutate(promoting.id), loading: promote.isPending },
          ]}
        >
          <FormError error={promote.error} title="The label could not be promoted." />
          Promoting {promoting.name} will make it available for all projects inside {groupPath}. Existing project labels with the same title will be merged. If a group label with the same title
          exists, it will also be merged. This action cannot be reversed.
        </Dialog>
      ) : null}
    </Stack>
  );
}
