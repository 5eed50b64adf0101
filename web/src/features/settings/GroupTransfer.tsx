import { Button, Dialog, FormControl, Heading, Select, Text } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormError } from '../../components/FormError';
import type { Group } from '../../lib/gitlab-types';
import { urls } from '../../lib/routes';
import { groupKeys, parentGroupOptionsQuery } from '../groups';
import { projectKeys } from '../projects';
import { transferGroupMutation } from './api';
import styles from './Settings.module.css';

const TOP_LEVEL = 'top';

/** GitLab's 'Transfer group': under another group the caller owns, or to the top level. */
export function GroupTransfer({ group }: { group: Group }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const parents = useQuery(parentGroupOptionsQuery());
  const [target, setTarget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const transfer = useMutation({
    ...transferGroupMutation(group.id),
    onSuccess: (moved) => {
      void queryClient.invalidateQueries({ queryKey: groupKeys.all });
      void queryClient.invalidateQueries({ queryKey: projectKeys.all });
      void navigate(urls.groupSettings(moved.full_path));
    },
  });
  // Not itself, not one of its subgroups, not where it already is.
  const choices = (parents.data ?? []).filter((candidate) => candidate.id !== group.id && !candidate.full_path.startsWith(`${group.full_path}/`) && candidate.id !== group.parent_id);
  const chosenLabel = target === TOP_LEVEL ? 'the top level' : choices.find((candidate) => String(candidate.id) === target)?.full_path;
  return (
    <div className={styles.danger}>
      <Heading as="h3" variant="small">
        Transfer group
      </Heading>
      <Text as="p" className={styles.muted}>
        Move this group, its subgroups and projects under another group, or make it a top-level group. Their URLs change.
      </Text>
      <FormError error={transfer.error} title="The group could not be transferred." />
      <FormControl disabled={parents.isPending}>
        <FormControl.Label>Select parent group</FormControl.Label>
        <Select value={target} onChange={(event) => setTarget(event.target.value)}>
          <Select.Option value="">Select a group</Select.Option>
          {group.parent_id !== null ? <Select.Option value={TOP_LEVEL}>No parent group (top level)</Select.Option> : null}
          {choices.map((candidate) => (
            <Select.Option key={candidate.id} value={String(candidate.id)}>
              {candidate.full_path}
            </Select.Option>
          ))}
        </Select>
        {parents.isError ? <FormControl.Validation variant="error">Groups could not be loaded.</FormControl.Validation> : null}
      </FormControl>
      <div>
        <Button variant="danger" disabled={!chosenLabel} loading={transfer.isPending} onClick={() => setConfirming(true)}>
          Transfer group
        </Button>
      </div>
      {confirming && chosenLabel ? (
        <Dialog
          title="Transfer group?"
          onClose={() => setConfirming(false)}
          width="medium"
          footerButtons={[
            { buttonType: 'default', content: 'Cancel', onClick: () => setConfirming(false), autoFocus: true },
            {
              buttonType: 'danger',
              content: 'Transfer group',
              onClick: () => {
                setConfirming(false);
                transfer.mutate(target === TOP_LEVEL ? null : Number(target));
              },
            },
          ]}
        >
          <p>
            {group.full_path} moves to <strong>{chosenLabel}</strong>, with its subgroups and projects.
          </p>
        </Dialog>
      ) : null}
    </div>
  );
}
