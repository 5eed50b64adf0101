import { PlusIcon } from '@primer/octicons-react';
import { Button, Heading, PageHeader, Stack } from '@primer/react';
import { SkeletonBox } from '@primer/react/experimental';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageError } from '../../components/PageError';
import { useCurrentUser } from '../session';
import { activeTokensQuery } from './api';
import { NewTokenBanner } from './NewTokenBanner';
import { NewTokenForm } from './NewTokenForm';
import { TokenTable } from './TokenTable';
import styles from './PersonalAccessTokensPage.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** `/-/user_settings/personal_access_tokens`. */
export function PersonalAccessTokensPage() {
  useDocumentTitle(['Personal access tokens', 'User settings']);
  const user = useCurrentUser();
  const tokens = useQuery(activeTokensQuery(user.id));
  const [adding, setAdding] = useState(false);
  const [newToken, setNewToken] = useState<string | null>(null);

  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">Personal access tokens</PageHeader.Title>
        </PageHeader.TitleArea>
        <PageHeader.Description>
          You can generate a personal access token for each application you use that needs access to the Tributary API. You can also
          use personal access tokens to authenticate against Git over HTTP. They are the only accepted password when you have
          Two-Factor Authentication (2FA) enabled.
        </PageHeader.Description>
      </PageHeader>
      {newToken ? <NewTokenBanner token={newToken} /> : null}
      <section className={styles.card} aria-labelledby="tokens-heading">
        <div className={styles.cardHeader}>
          <Heading as="h2" variant="small" id="tokens-heading">
            Active personal access tokens {tokens.data ? <span className="fgMuted">({tokens.data.length})</span> : null}
          </Heading>
          {adding ? null : (
            <Button leadingVisual={PlusIcon} onClick={() => setAdding(true)}>
              Add new token
            </Button>
          )}
        </div>
        {adding ? (
          <div className={styles.cardBody}>
            <NewTokenForm
              onCancel={() => setAdding(false)}
              onCreated={(token) => {
                setAdding(false);
                setNewToken(token.token ?? null);
              }}
            />
          </div>
        ) : null}
        <div className={styles.cardBody}>
          {tokens.isPending ? (
            <SkeletonBox height="120px" />
          ) : tokens.isError ? (
            <PageError title="The tokens could not be loaded." error={tokens.error} onRetry={() => void tokens.refetch()} />
          ) : (
            <TokenTable tokens={tokens.data} />
          )}
        </div>
      </section>
    </Stack>
  );
}
