import { Link } from '@primer/react';
import { t } from '@tributary/contracts';
import { urls } from '../../lib/routes';
import styles from './Notes.module.css';

/**
 * What a signed-out visitor sees instead of the comment form: the
 * prompt, linking to sign in and back to this page.
 */
export function SignedOutPrompt({ returnTo }: { returnTo: string }) {
  return (
    <p className={styles.signedOut}>
      <Link href={urls.signIn(returnTo)}>{t('Please register or sign in to reply.')}</Link>
    </p>
  );
}
