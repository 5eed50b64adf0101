import { EyeClosedIcon, EyeIcon, KeyIcon } from '@primer/octicons-react';
import { Button, Pagination, Stack } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { manualVariablesQuery } from './manual-variables-api';
import styles from './Pipelines.module.css';

/** GitLab's page size for this table. */
export const VARIABLES_PER_PAGE = 15;

/**
 * The pipeline's Manual variables tab (GitLab's manual_variables): the variables given when it
 * was run ('Run pipeline', the API's `variables`), keys shown and values masked. Only callers who
 * may read the values (Maintainers, and the Developer who ran the pipeline) receive them from the
 * server, so only they get 'Reveal values'.
 */
export function ManualVariablesTab({ fullPath, pipelineIid }: { fullPath: string; pipelineIid: number }) {
  const variables = useQuery(manualVariablesQuery(fullPath, pipelineIid));
  const [revealed, setRevealed] = useState(false);
  const [page, setPage] = useState(1);
  if (variables.isPending) return <PageLoading label="Loading variables…" />;
  if (variables.isError) return <PageError title="The variables could not be loaded." error={variables.error} onRetry={() => void variables.refetch()} />;
  const { count, nodes } = variables.data;
  if (count === 0) return <EmptyState icon={KeyIcon} title="There are no manually-specified variables for this pipeline" />;
  const canReveal = nodes.some((variable) => variable.value !== null);
  const pageCount = Math.ceil(nodes.length / VARIABLES_PER_PAGE);
  const shown = nodes.slice((page - 1) * VARIABLES_PER_PAGE, page * VARIABLES_PER_PAGE);
  return (
    <Stack gap="condensed">
      {canReveal ? (
        <div>
          <Button leadingVisual={revealed ? EyeClosedIcon : EyeIcon} onClick={() => setRevealed(!revealed)}>
            {revealed ? 'Hide values' : 'Reveal values'}
          </Button>
        </div>
      ) : null}
      <table className={styles.table} aria-label="Manual variables">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((variable) => (
            <tr key={variable.id}>
              <td className={styles.mono}>{variable.key}</td>
              <td className={styles.mono}>{revealed && variable.value !== null ? variable.value : '****'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pageCount > 1 ? (
        <Pagination
          pageCount={pageCount}
          currentPage={page}
          onPageChange={(event, next) => {
            event.preventDefault();
            setPage(next);
          }}
        />
      ) : null}
    </Stack>
  );
}
