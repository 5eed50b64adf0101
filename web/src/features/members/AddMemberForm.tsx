import { Button, FormControl, Select, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { roleName } from './access-levels';
import { addMemberMutation, memberKeys, type MemberSource } from './api';
import styles from './MembersPanel.module.css';
import { AccessLevel } from '@tributary/contracts/access-levels';

/** Add a user by username with a role. */
export function AddMemberForm({ source, levels, onAdded }: { source: MemberSource; levels: number[]; onAdded: (username: string) => void }) {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [level, setLevel] = useState(String(levels.includes(AccessLevel.Developer) ? AccessLevel.Developer : levels[0]));
  const add = useMutation({
    ...addMemberMutation(source),
    onSuccess: (member) => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.all(source) });
      setUsername('');
      onAdded(member.username);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate({ username: username.trim().replace(/^@/, ''), access_level: Number(level) });
  }

  return (
    <form onSubmit={submit} className={styles.addForm} aria-label="Add member" noValidate>
      <FormError error={add.error} title="The member could not be added." />
      <div className={styles.addRow}>
        <FormControl required className={styles.username}>
          <FormControl.Label requiredIndicator={false}>Username</FormControl.Label>
          <TextInput block value={username} onChange={(event) => setUsername(event.target.value)} placeholder="username" autoComplete="off" />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Access level</FormControl.Label>
          <Select value={level} onChange={(event) => setLevel(event.target.value)}>
            {levels.map((value) => (
              <Select.Option key={value} value={String(value)}>
                {roleName(value)}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
        <Button type="submit" variant="primary" loading={add.isPending} disabled={!username.trim()} className={styles.addButton}>
          Add member
        </Button>
      </div>
    </form>
  );
}
