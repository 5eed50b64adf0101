import { Button, Dialog, FormControl, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import type { Label } from '../../lib/gitlab-types';
import { labelKeys, saveLabelMutation, type LabelsOwner } from './api';
import { safeColor } from './label-parts';
import styles from './LabelsPages.module.css';

/** GitLab's suggested label colours. */
const SUGGESTED = ['#009966', '#8fbc8f', '#3cb371', '#00b140', '#013220', '#6699cc', '#0000ff', '#e6e6fa', '#9400d3', '#330066', '#808080', '#36454f', '#f7e7ce', '#c21e56', '#cc338b', '#dc143c', '#ff0000', '#cd5b45', '#eee600', '#ed9121', '#c39953'];

export function LabelDialog({ owner, label, onClose }: { owner: LabelsOwner; label: Label | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? SUGGESTED[5]!);
  const [description, setDescription] = useState(label?.description ?? '');
  const save = useMutation({
    ...saveLabelMutation(owner, label?.id ?? null),
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
