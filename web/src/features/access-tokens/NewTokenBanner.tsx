import { Flash, TextInput } from '@primer/react';
import { useId } from 'react';
import { CopyButton } from '../../components/CopyButton';
import styles from './PersonalAccessTokensPage.module.css';

/** The token value, shown once right after it is created. */
export function NewTokenBanner({ token }: { token: string }) {
  const id = useId();
  return (
    <Flash variant="success" className={styles.banner}>
      <label htmlFor={id} className={styles.bannerLabel}>
        Your new personal access token
      </label>
      <div className={styles.tokenRow}>
        <TextInput id={id} readOnly value={token} monospace block aria-describedby={`${id}-warning`} onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={token} label="Copy personal access token" />
      </div>
      <p id={`${id}-warning`} className={styles.bannerWarning}>
        Make sure you save it - you won't be able to access it again.
      </p>
    </Flash>
  );
}
