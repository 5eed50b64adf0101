import { Flash, IconButton } from '@primer/react';
import { XIcon } from '@primer/octicons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { calloutsQuery, dismissCalloutMutation } from '../merge-widget';

/** GitLab's user callout for the hover tip of the pipeline graph's dependency lines. */
export const NEEDS_HOVER_TIP_CALLOUT = 'pipeline_needs_hover_tip';

/**
 * "Tip: Hover over a job to see the jobs it depends on to run." (GitLab's graph_view_selector.vue):
 * shown while the dependency lines are, until dismissed; dismissing records GitLab's
 * `pipeline_needs_hover_tip` callout, so it stays dismissed (a failed or anonymous dismissal
 * hides it for this page only).
 */
export function NeedsHoverTip() {
  const queryClient = useQueryClient();
  const [dismissedHere, setDismissedHere] = useState(false);
  const callouts = useQuery({ ...calloutsQuery(), retry: false });
  const dismiss = useMutation({
    ...dismissCalloutMutation(),
    onMutate: (feature) => queryClient.setQueryData(calloutsQuery().queryKey, (dismissed) => new Set([...(dismissed ?? []), feature])),
    onError: (error) => console.warn('Could not dismiss the pipeline graph tip', error),
  });
  if (dismissedHere || callouts.isPending || callouts.data?.has(NEEDS_HOVER_TIP_CALLOUT)) return null;
  return (
    <Flash variant="default" style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
      <span style={{ flex: 1 }}>Tip: Hover over a job to see the jobs it depends on to run.</span>
      <IconButton
        icon={XIcon}
        size="small"
        variant="invisible"
        aria-label="Dismiss"
        onClick={() => {
          setDismissedHere(true);
          dismiss.mutate(NEEDS_HOVER_TIP_CALLOUT);
        }}
      />
    </Flash>
  );
}
