import { Button, FormControl, Select, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { useDebouncedValue } from '../../components/useDebouncedValue';
import { roleName } from './access-levels';
import { addMemberMutation, memberKeys, userSuggestionsQuery, type MemberSource } from './api';
import styles from './MembersPanel.module.css';
import { AccessLevel } from '@tributary/contracts/access-levels';

/**
 * Add a user by username with a role. Usernames are suggested as they are typed (the browser's
 * own list, so the arrow keys and Enter choose). A new attempt clears the last one's message, so
 * a failure never shows beside an earlier success.
 */
export function AddMemberForm({
  source,
  levels,
  onAdded,
  onAttempt,
}: {
  source: MemberSource;
  levels: number[];
  onAdded: (username: string) => void;
  onAttempt: () => void;
}) {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [tried, setTried] = useState(false);
  const term = useDebouncedValue(username.trim().replace(/^@/, ''));
  const suggestions = useQuery({ ...userSuggestionsQuery(term), enabled: term.length > 0 });
  const listId = useId();
  const [level, setLevel] = useState(String(levels.includes(AccessLevel.Developer) ? AccessLevel.Developer : levels[0]));
  const add = useMutation({
    ...addMemberMutation(source),
    onMutate: onAttempt,
    onSuccess: (member) => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.all(source) });
      setUsername('');
      setTried(false);
      onAdded(member.username);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (!username.trim()) {
      add.reset();
      onAttempt();
      return;
    }
    add.mutate({ username: username.trim().replace(/^@/, ''), access_level: Number(level) });
  }

  return (
    <form onSubmit={submit} className={styles.addForm} aria-label="Add member" noValidate>
      <FormError error={add.error} title="The member could not be added." />
      <div className={styles.addRow}>
        <FormControl required className={styles.username}>
          <FormControl.Label requiredIndicator={false}>Username</FormControl.Label>
          <TextInput block value={username} onChange={(event) => setUsername(event.target.value)} placeholder="username" autoComplete="off" list={listId} />
          <datalist id={listId}>
            {(suggestions.data ?? []).map((user) => (
              <option key={user.id} value={user.username}>
                {user.name}
              </option>
            ))}
          </datalist>
          {tried && !username.trim() ? <FormControl.Validation variant="error">Please enter a username.</FormControl.Validation> : null}
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
        <Button type="submit" variant="primary" loading={add.isPending} className={styles.addButton}>
          Add member
        </Button>
      </div>
    </form>
  );
}
