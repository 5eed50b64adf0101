import { Heading, SegmentedControl, Stack } from '@primer/react';
import { useSearchParams } from 'react-router-dom';
import { DASHBOARD_SCOPES, type DashboardScope } from './list-params';
import { MergeRequestList } from './MergeRequestList';
import { useDocumentTitle } from '../../components/useDocumentTitle';

const SCOPE_LABELS: Record<DashboardScope, string> = {
  assigned_to_me: 'Assigned to you',
  reviews_for_me: 'Review requests',
  created_by_me: 'Created by you',
};

const isScope = (value: string | null): value is DashboardScope => DASHBOARD_SCOPES.includes(value as DashboardScope);

/** `/dashboard/merge_requests`: yours across the instance (GET /merge_requests?scope=…). */
export function DashboardMergeRequestsPage() {
  useDocumentTitle(['Merge requests']);
  const [search, setSearch] = useSearchParams();
  const scopeParam = search.get('scope');
  const scope: DashboardScope = isScope(scopeParam) ? scopeParam : 'assigned_to_me';
  return (
    <Stack gap="normal">
      <Heading as="h1" variant="medium">
        Merge requests
      </Heading>
      <SegmentedControl aria-label="Whose merge requests">
        {DASHBOARD_SCOPES.map((candidate) => (
          <SegmentedControl.Button key={candidate} selected={candidate === scope} onClick={() => setSearch(candidate === 'assigned_to_me' ? {} : { scope: candidate })}>
            {SCOPE_LABELS[candidate]}
          </SegmentedControl.Button>
        ))}
      </SegmentedControl>
      <MergeRequestList
        key={scope}
        scope="dashboard"
        extra={{ scope }}
        usersProjectId={null}
        showProject
        emptyDescription={scope === 'reviews_for_me' ? 'Merge requests you are asked to review show here.' : scope === 'created_by_me' ? 'Merge requests you open show here.' : 'Merge requests assigned to you show here.'}
      />
    </Stack>
  );
}
