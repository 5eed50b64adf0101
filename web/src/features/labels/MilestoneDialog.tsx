import { Button, Dialog, FormControl, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import type { Milestone } from '../../lib/gitlab-types';
import { labelKeys, saveMilestoneMutation, type LabelsOwner } from './api';
import styles from './LabelsPages.module.css';

/** New or edit a milestone: title, description, start and due dates. */
export function MilestoneDialog({ owner, milestone, onClose }: { owner: LabelsOwner; milestone: Milestone | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(milestone?.title ?? '');
  const [description, setDescription] = useState(milestone?.description ?? '');
  const [startDate, setStartDate] = useState(milestone?.start_date ?? '');
  const [dueDate, setDueDate] = useState(milestone?.due_date ?? '');
  const save = useMutation({
    ...saveMilestoneMutation(owner, milestone?.id ?? null),
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
