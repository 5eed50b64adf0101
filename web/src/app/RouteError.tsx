import { AlertIcon } from '@primer/octicons-react';
import { Button } from '@primer/react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { EmptyState } from '../components/EmptyState';

/** A chunk that no longer exists after a deploy fails to load; a reload fetches the new index. */
function isStaleChunk(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|preload CSS|Importing a module script failed/i.test(error.message);
}

/** The router's error element: something threw while rendering a page. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : isStaleChunk(error)
      ? 'A new version of Tributary is available.'
      : error instanceof Error
        ? error.message
        : 'An unexpected error occurred.';
  return (
    <main style={{ maxWidth: 720, margin: '10vh auto', padding: 16 }}>
      <EmptyState icon={AlertIcon} title="Something went wrong" description={detail}>
        <Button variant="primary" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      </EmptyState>
    </main>
  );
}
