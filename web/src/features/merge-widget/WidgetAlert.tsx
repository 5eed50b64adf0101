import { XIcon } from '@primer/octicons-react';
import { Flash, IconButton } from '@primer/react';
import { t } from '@tributary/contracts/i18n';
import { MSG } from './messages';

/** A message about something the user just did (GitLab's createAlert): a rebase scheduled, a failed request. */
export interface WidgetAlert {
  variant: 'success' | 'danger' | 'default';
  text: string;
  detail?: string;
  /** a link after the text ('Learn more') */
  link?: { text: string; href: string };
}

export function WidgetAlertFlash({ alert, onDismiss }: { alert: WidgetAlert; onDismiss: () => void }) {
  return (
    <Flash variant={alert.variant} role={alert.variant === 'danger' ? 'alert' : 'status'} full>
      <span style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <span style={{ flex: 1 }}>
          {alert.text}
          {alert.detail ? <span className="fgMuted"> {alert.detail}</span> : null}
          {alert.link ? (
            <>
              {' '}
              <a href={alert.link.href} target="_blank" rel="noreferrer">
                {alert.link.text}
              </a>
            </>
          ) : null}
        </span>
        <IconButton icon={XIcon} size="small" variant="invisible" aria-label="Dismiss" onClick={onDismiss} />
      </span>
    </Flash>
  );
}

/** The alert a failed merge call shows (a request error fires the merge failure and shows an alert). */
export const mergeRequestErrorAlert = (detail?: string): WidgetAlert => ({ variant: 'danger', text: t(MSG.genericError), detail });
