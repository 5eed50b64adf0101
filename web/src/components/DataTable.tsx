import type { ReactNode } from 'react';
import styles from './DataTable.module.css';

/**
 * The list pages' table (pipelines, jobs, test reports, environments, merge trains): bordered, one
 * header row of column names (a null column is left out, for columns shown only sometimes), the
 * caller's rows below. `label` names the table for assistive technology and for the tests.
 */
export function DataTable({ label, columns, children }: { label: string; columns: readonly ReactNode[]; children: ReactNode }) {
  return (
    <table className={styles.table} aria-label={label}>
      <thead>
        <tr>
          {columns
            .filter((column) => column !== null && column !== undefined && column !== false)
            .map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
