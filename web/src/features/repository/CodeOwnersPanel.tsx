import { AlertIcon, CheckCircleIcon, PeopleIcon } from '@primer/octicons-react';
import { Link } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { errorMessage } from '../../lib/api-error';
import { codeOwnersQuery } from './api';
import styles from './CodeOwnersPanel.module.css';

/**
 * Above a file: "Code owners: @a, @group" (links), as GitLab's blob page shows them, when a
 * CODEOWNERS file applies at the ref; and on the CODEOWNERS file itself, its syntax check
 * (GitLab's "Syntax is valid." / "Contains N syntax errors." with each error's line).
 */
export function CodeOwnersPanel({ fullPath, ref, path }: { fullPath: string; ref: string; path: string }) {
  const owners = useQuery(codeOwnersQuery(fullPath, ref, path));
  if (owners.isPending) {
    return (
      <div className={styles.row} role="status" aria-label="Loading code owners">
        <span className="fgMuted">Loading code owners…</span>
      </div>
    );
  }
  if (owners.isError) {
    return (
      <div className={styles.row}>
        <span className="fgMuted">The code owners could not be loaded: {errorMessage(owners.error)}</span>
      </div>
    );
  }
  const { code_owners: list, errors, codeowners_path: codeownersPath } = owners.data;
  if (codeownersPath === null) return null;
  return (
    <>
      {list.length > 0 ? (
        <div className={styles.row} role="region" aria-label="Code owners">
          <PeopleIcon />
          <strong>Code owners:</strong>{' '}
          <span>
            {list.map((owner, index) => (
              <Fragment key={`${owner.type}-${owner.id}`}>
                {index > 0 ? ', ' : null}
                <Link href={owner.web_url} title={owner.name}>
                  @{owner.type === 'user' ? owner.username : owner.full_path}
                </Link>
              </Fragment>
            ))}
          </span>
        </div>
      ) : null}
      {errors ? (
        <div className={styles.row} role="region" aria-label="CODEOWNERS syntax">
          {errors.length === 0 ? (
            <>
              <CheckCircleIcon className={styles.valid} />
              <span>Syntax is valid.</span>
            </>
          ) : (
            <div>
              <div className={styles.errorsTitle}>
                <AlertIcon className={styles.invalid} />
                <strong>{errors.length === 1 ? 'Contains 1 syntax error.' : `Contains ${errors.length} syntax errors.`}</strong>
              </div>
              <ul className={styles.errors}>
                {errors.map((error) => (
                  <li key={`${error.kind}-${error.line}`}>
                    {error.message} on line {error.line}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      ) : null}
    </>
  );
}
