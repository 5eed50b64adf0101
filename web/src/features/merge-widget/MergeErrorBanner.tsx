import { AlertIcon, XIcon } from '@primer/octicons-react';
import { IconButton, Link } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { mergeErrorBanner } from './merge-error';
import { MSG } from './messages';
import styles from './MergeWidget.module.css';

/** The dismissible merge error banner. */
export function MergeErrorBanner({ mergeError, onDismiss }: { mergeError: string; onDismiss: () => void }) {
  const banner = mergeErrorBanner(mergeError);
  return (
    <div className={`${styles.banner} ${styles.danger}`} role="alert">
      <AlertIcon className={styles.failed} />
      <span className={styles.bannerText}>
        {banner.text}
        {banner.storageLink ? (
          <>
            {' '}
            <Link href="/-/profile/usage_quotas">{t(MSG.manageStorage)}</Link>
          </>
        ) : null}
      </span>
      <IconButton icon={XIcon} size="small" variant="invisible" aria-label="Dismiss" onClick={onDismiss} />
    </div>
  );
}
