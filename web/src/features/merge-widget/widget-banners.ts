import type { WidgetAlert } from './WidgetAlert';

/**
 * Which banners the widget shows at once. The server's merge error (a failed merge or
 * rebase) wins over the user's own success alert ('Scheduled a rebase of branch …'): a
 * rebase that failed in the background must not read as both scheduled and failed. While a
 * rebase runs the earlier error is not shown (the rebase decides it anew), and a dismissed
 * error stays away until a different one arrives.
 */
export function widgetBanners(input: {
  alert: WidgetAlert | null;
  state: string;
  mergeError: string | null;
  rebaseInProgress: boolean;
  /** the failed-to-merge panel shows the error itself */
  failedToMergeShown: boolean;
  dismissedError: string | null;
}): { alert: WidgetAlert | null; mergeError: string | null } {
  const error =
    input.state === 'opened' && input.mergeError && !input.rebaseInProgress && !input.failedToMergeShown && input.dismissedError !== input.mergeError ? input.mergeError : null;
  const alert = error !== null && input.alert?.variant === 'success' ? null : input.alert;
  return { alert, mergeError: error };
}
