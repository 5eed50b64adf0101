import { Button, Dialog, FormControl, Heading, Select, Text, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormError } from '../../components/FormError';
import type { Project } from '../../lib/gitlab-types';
import { OWNER } from '../../lib/permissions';
import { urls } from '../../lib/routes';
import { namespacesQuery, projectKeys } from '../projects';
import { userProjectLevel, useOptionalUser } from '../session';
import { archiveProjectMutation, deleteProjectMutation, transferProjectMutation, updateProjectMutation } from './api';
import styles from './Settings.module.css';
import { SettingsSection } from './SettingsSection';
import { DeleteWithConfirmation } from './DeleteWithConfirmation';

function ArchiveProject({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const archive = useMutation({
    ...archiveProjectMutation(project.id),
    onSuccess: (updated) => queryClient.setQueryData(projectKeys.detail(project.path_with_namespace), updated),
  });
  const archived = project.archived === true;
  return (
    <div className={styles.danger}>
      <Heading as="h3" variant="small">
        {archived ? 'Unarchive project' : 'Archive project'}
      </Heading>
      <Text as="p" className={styles.muted}>
        {archived
          ? 'Unarchive the project to restore full functionality. The project becomes editable and can be contributed to.'
          : 'Make your project read-only. You can still access its data, work items, and merge requests.'}
      </Text>
      <FormError error={archive.error} title={archived ? 'The project could not be unarchived.' : 'The project could not be archived.'} />
      <div>
        <Button variant={archived ? 'default' : 'danger'} loading={archive.isPending} onClick={() => archive.mutate(!archived)}>
          {archived ? 'Unarchive project' : 'Archive project'}
        </Button>
      </div>
    </div>
  );
}

/** GitLab's 'Change path': the project's URL; the repository stays where it is. */
function ChangePath({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [path, setPath] = useState(project.path);
  const [tried, setTried] = useState(false);
  const change = useMutation({
    ...updateProjectMutation(project.id),
    onSuccess: (moved) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void navigate(urls.projectSettings(moved.path_with_namespace));
    },
  });
  const blank = path.trim() === '';
  return (
    <form
      className={styles.danger}
      aria-label="Change path"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (!blank) change.mutate({ path: path.trim() });
      }}
    >
      <Heading as="h3" variant="small">
        Change path
      </Heading>
      <Text as="p" className={styles.muted}>
        A project's repository name defines its URL and its place on the file disk. Update your local clones after the change.
      </Text>
      <FormError error={change.error} title="The path could not be changed." />
      <FormControl required>
        <FormControl.Label requiredIndicator={false}>Path</FormControl.Label>
        <TextInput leadingVisual={<span className={styles.muted}>/{project.namespace.full_path}/</span>} value={path} onChange={(event) => setPath(event.target.value)} />
        {tried && blank ? <FormControl.Validation variant="error">Please enter a path.</FormControl.Validation> : null}
      </FormControl>
      <div>
        <Button type="submit" variant="danger" loading={change.isPending} disabled={path.trim() === project.path}>
          Change path
        </Button>
      </div>
    </form>
  );
}

function TransferProject({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const namespaces = useQuery(namespacesQuery());
  const [target, setTarget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const transfer = useMutation({
    ...transferProjectMutation(project.id),
    onSuccess: (moved) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void navigate(urls.projectSettings(moved.path_with_namespace));
    },
  });
  const choices = (namespaces.data ?? []).filter((ns) => ns.id !== project.namespace.id);
  const chosen = choices.find((ns) => String(ns.id) === target);
  return (
    <div className={styles.danger}>
      <Heading as="h3" variant="small">
        Transfer project
      </Heading>
      <Text as="p" className={styles.muted}>
        Transfer your project into another namespace. The project's URL changes; update your local clones to point to the new location.
      </Text>
      <FormError error={transfer.error} title="The project could not be transferred." />
      <FormControl disabled={namespaces.isPending}>
        <FormControl.Label>Select a new namespace</FormControl.Label>
        <Select value={target} onChange={(event) => setTarget(event.target.value)}>
          <Select.Option value="">Select a namespace</Select.Option>
          {choices.map((ns) => (
            <Select.Option key={ns.id} value={String(ns.id)}>
              {ns.full_path}
            </Select.Option>
          ))}
        </Select>
        {namespaces.isError ? <FormControl.Validation variant="error">Namespaces could not be loaded.</FormControl.Validation> : null}
      </FormControl>
      <div>
        <Button variant="danger" disabled={!chosen} loading={transfer.isPending} onClick={() => setConfirming(true)}>
          Transfer project
        </Button>
      </div>
      {confirming && chosen ? (
        <Dialog
          title="Transfer project?"
          onClose={() => setConfirming(false)}
          width="medium"
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setConfirming(false), autoFocus: true },
            {
              buttonType: 'danger',
              content: 'Transfer project',
              onClick: () => {
                setConfirming(false);
                transfer.mutate(chosen.id);
              },
            },
          ]}
        >
          <p>
            {project.name} moves to <strong>{chosen.full_path}</strong>: its address becomes /{chosen.full_path}/{project.path}.
          </p>
        </Dialog>
      ) : null}
    </div>
  );
}

/** Deleting the project, confirmed by typing its path (GitLab's). */
function DeleteProject({ project }: { project: Project }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    ...deleteProjectMutation(project.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void navigate('/dashboard/projects');
    },
  });
  return (
    <DeleteWithConfirmation
      kind="project"
      path={project.path_with_namespace}
      consequence={`This action deletes ${project.path_with_namespace} and everything this project contains. There is no going back.`}
      warning="This action will permanently delete this project, including all its resources."
      deleting={remove.isPending}
      error={remove.error}
      onDelete={() => remove.mutate()}
    />
  );
}

/** GitLab's 'Advanced' section: archive (Maintainers), transfer and delete (Owners). */
export function ProjectAdvancedSettings({ project }: { project: Project }) {
  const user = useOptionalUser();
  const isOwner = userProjectLevel(project, user) >= OWNER;
  return (
    <SettingsSection title="Advanced" description="Housekeeping, export, archive, change path, transfer, and delete.">
      <div className={styles.form}>
        <ArchiveProject project={project} />
        <ChangePath project={project} />
        {isOwner ? <TransferProject project={project} /> : null}
        {isOwner ? <DeleteProject project={project} /> : null}
      </div>
    </SettingsSection>
  );
}
