import { KeyIcon } from '@primer/octicons-react';
import { Button, Label, useConfirm } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EmptyState } from '../../components/EmptyState';
import { FormError } from '../../components/FormError';
import { TimeAgo } from '../../components/TimeAgo';
import type { PersonalAccessToken } from '../../lib/gitlab-types';
import { formatDate } from '../../lib/time';
import { revokeTokenMutation, tokenKeys } from './api';
import styles from './PersonalAccessTokensPage.module.css';

/** Active tokens with their scopes and dates, each revocable after a confirmation. */
export function TokenTable({ tokens }: { tokens: PersonalAccessToken[] }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const revoke = useMutation({
    ...revokeTokenMutation(),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: tokenKeys.all }),
  });

  async function askAndRevoke(token: PersonalAccessToken) {
    const confirmed = await confirm({
      title: `Revoke ${token.name}?`,
      content: 'Are you sure you want to revoke this token? This action cannot be undone. Any tools that rely on this token will stop working.',
      confirmButtonContent: 'Revoke',
      confirmButtonType: 'danger',
    });
    if (confirmed) revoke.mutate(token.id);
  }

  if (tokens.length === 0) {
    return <EmptyState border={false} icon={KeyIcon} title="This user has no active personal access tokens." />;
  }
  return (
    <>
      <FormError error={revoke.error} title="The token could not be revoked." />
      <div className={styles.tableWrap}>
        <table className={styles.table} aria-label="Active personal access tokens">
          <thead>
            <tr>
              <th scope="col">Token name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>
                  <strong>{token.name}</strong>
                </td>
                <td>
                  <span className={styles.scopes}>
                    {token.scopes.map((scope) => (
                      <Label key={scope}>{scope}</Label>
                    ))}
                  </span>
                </td>
                <td>{formatDate(token.created_at)}</td>
                <td>{token.last_used_at ? <TimeAgo date={token.last_used_at} /> : 'Never'}</td>
                <td>{token.expires_at ? formatDate(`${token.expires_at}T00:00:00`) : 'Never'}</td>
                <td>
                  <Button
                    variant="danger"
                    size="small"
                    aria-label={`Revoke ${token.name}`}
                    loading={revoke.isPending && revoke.variables === token.id}
                    onClick={() => void askAndRevoke(token)}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
