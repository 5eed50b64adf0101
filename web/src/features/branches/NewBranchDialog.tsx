import { Button, FormControl, TextInput } from '@primer/react';
import { Dialog } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import type { Branch, Project } from '../../lib/gitlab-types';
import { createBranchMutation } from './api';
import styles from './NewBranchDialog.module.css';

/** "New branch": a name and the branch, tag or commit to start it from. */
export function NewBranchDialog({ project, onClose, onCreated }: { project: Project; onClose: () => void; onCreated: (branch: Branch) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [ref, setRef] = useState(project.default_branch ?? '');
  const create = useMutation({
    ...createBranchMutation(project.id),
    onSuccess: (branch) => {
      void queryClient.invalidateQueries({ queryKey: ['projects', project.id] });
      onCreated(branch);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ branch: name.trim(), ref: ref.trim() });
  }

  return (
    <Dialog title="New branch" onClose={onClose} width="medium">
      <form id="new-branch-form" onSubmit={submit} className={styles.form} noValidate>
        <FormError error={create.error} title="The branch could not be created." />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Branch name</FormControl.Label>
          <TextInput block autoFocus value={name} onChange={(event) => setName(event.target.value)} monospace />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Create from</FormControl.Label>
          <TextInput block value={ref} onChange={(event) => setRef(event.target.value)} monospace />
          <FormControl.Caption>Existing branch name, tag, or commit SHA</FormControl.Caption>
        </FormControl>
        <div className={styles.actions}>
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={create.isPending} disabled={!name.trim() || !ref.trim()}>
            Create branch
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

