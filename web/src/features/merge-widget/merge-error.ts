import { t } from '@tributary/contracts/i18n';
import { MSG } from './messages';

/**
 * The dismissible merge error banner: '%{mergeError}. Try again.' with the
 * error's own trailing period stripped, except an error about full namespace storage, which
 * shows unchanged followed by a link to manage the storage.
 */
export interface MergeErrorBanner {
  text: string;
  /** Show the 'To continue, manage your storage usage.' link after the text. */
  storageLink: boolean;
}

export function mergeErrorBanner(mergeError: string): MergeErrorBanner {
  if (mergeError.includes(MSG.namespaceStorageFull)) return { text: mergeError, storageLink: true };
  return { text: t(MSG.mergeErrorBanner, { mergeError: mergeError.trim().replace(/\.+$/, '') }), storageLink: false };
}

/** The failed-to-merge panel: 'Merge failed.' or the cleaned server error. */
export function failedToMergeText(mergeError: string | null): string {
  const cleaned = mergeError?.trim().replace(/\.+$/, '');
  return cleaned ? `${cleaned}.` : t(MSG.mergeFailed);
}
