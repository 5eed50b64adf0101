import { PencilIcon, TagIcon, TrashIcon } from '@primer/octicons-react';
import { Button, Dialog, FormControl, Heading, IconButton, Stack, TextInput } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import type { Label, Project } from '../../lib/gitlab-types';
import { canManageLabels } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { userProjectLevel, useOptionalUser } from '../session';
import { deleteLabelMutation, labelKeys, projectLabelsQuery, saveLabelMutation } from './api';
import { safeColor } from './label-parts';
import { LabelToken } from './LabelToken';
import styles from './LabelsPages.module.css';

/** GitLab's suggested label colours. */
const SUGGESTED = ['#009966', '#8fbc8f', '#3cb371', '#00b140', '#013220', '#6699cc', '#0000ff', '#e6e6fa', '#9400d3', '#330066', '#808080', '#36454f', '#f7e7ce', '#c21e56', '#cc338b', '#dc143c', '#ff0000', '#cd5b45', '#eee600', '#ed9121', '#c39953'];

function LabelDialog({ project, label, onClose }: { project: Project; label: Label | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? SUGGESTED[5]!);
  const [description, setDescription] = useState(label?.description ?? '');
  const save = useMutation({
    ...saveLabelMutation(project.id, label?.id ?? null),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: labelKeys.all });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: name.trim(), color: color.trim(), description });
  };
  return (
    <Dialog title={label ? 'Edit label' : 'New label'} onClose={onClose} width="medium">
      <form onSubmit={submit} className={styles.form} noValidate>
        <FormError error={save.error} title={label ? 'The label could not be saved.' : 'The label could not be created.'} />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Title</FormControl.Label>
          <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} />
          <FormControl.Caption>Use key::value for a scoped label: a merge request has one value per key.</FormControl.Caption>
        </FormControl>
        <FormControl>
          <FormControl.Label>Description</FormControl.Label>
          <TextInput block value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Background color</FormControl.Label>
          <TextInput value={color} onChange={(event) => setColor(event.target.value)} monospace leadingVisual={() => <span className={styles.preview} style={{ backgroundColor: safeColor(color) }} aria-hidden />} />
          <FormControl.Caption>A hex colour such as #6699cc, or a CSS colour name.</FormControl.Caption>
        </FormControl>
        <div className={styles.colorRow} role="group" aria-label="Suggested colours">
          {SUGGESTED.map((suggested) => (
            <button key={suggested} type="button" className={styles.swatch} style={{ backgroundColor: suggested }} aria-label={`Use ${suggested}`} onClick={() => setColor(suggested)} />
          ))}
        </div>
        <div className={styles.formActions}>
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={save.isPending} disabled={!name.trim() || !color.trim()}>
            {label ? 'Save changes' : 'Create label'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** `/<project path>/-/labels`: the project's labels and its groups', made, edited and deleted by Reporters and above. */
export function ProjectLabelsPage({ project }: { project: Project }) {
  const user = useOptionalUser();
  const manage = canManageLabels(userProjectLevel(project, user));
  const labels = useQuery(projectLabelsQuery(project.id));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Label | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Label | null>(null);
  const remove = useMutation({
    ...deleteLabelMutation(project.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: labelKeys.all });
      setDeleting(null);
    },
  });

  return (
    <Stack gap="normal">
      <div className={styles.toolbar}>
        <Heading as="h2" variant="small">Labels</Heading>
        {manage ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            New label
          </Button>
        ) : null}
      </div>
      {labels.isPending ? (
        <div role="status" aria-label="Loading labels">
          <SkeletonBox height="160px" />
        </div>
      ) : labels.isError ? (
        <PageError title="The labels could not be loaded." error={labels.error} onRetry={() => void labels.refetch()} />
      ) : labels.data.length === 0 ? (
        <EmptyState icon={TagIcon} title="Use labels to divide up your merge requests" description="Labels can be applied to merge requests to filter them." />
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
              <span className="fgMuted">{label.is_project_label ? 'Project label' : 'Group label'}</span>
              <RouterLink to={{ pathname: urls.mergeRequests(project.path_with_namespace), search: new URLSearchParams({ labels: label.name }).toString() }}>
                {label.open_merge_requests_count ?? 0} open merge requests
              </RouterLink>
              {manage && label.is_project_label ? (
                <span className={styles.actions}>
                  <IconButton icon={PencilIcon} aria-label={`Edit ${label.name}`} variant="invisible" onClick={() => setEditing(label)} />
                  <IconButton icon={TrashIcon} aria-label={`Delete ${label.name}`} variant="invisible" onClick={() => setDeleting(label)} />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? <LabelDialog project={project} label={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
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
    </Stack>
  );
}
