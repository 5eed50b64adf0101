import { ChevronDownIcon, ChevronRightIcon } from '@primer/octicons-react';
import { Button, Link, Spinner } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { exposedArtifactsQuery } from './api';
import styles from './ExposedArtifacts.module.css';

/** GitLab's strings for the exposed artifacts. */
export const ARTIFACTS_FETCH_ERROR = 'An error occurred while fetching the artifacts.';
export const artifactsTitle = (count: number) => (count === 1 ? 'View exposed artifact' : `View ${count} exposed artifacts`);

/**
 * The exposed artifacts under the pipeline container (GitLab's artifacts_list_app): collapsed
 * behind 'View N exposed artifacts', each the link of its `expose_as` text and the job that made it.
 * Nothing shows while no job exposes artifacts.
 */
export function ExposedArtifacts({ fullPath, iid, pipeline }: { fullPath: string; iid: number; pipeline: { id: string; status: string; active: boolean } }) {
  const [open, setOpen] = useState(false);
  const query = useQuery(exposedArtifactsQuery(fullPath, iid, pipeline));
  if (query.isPending) {
    return (
      <div className={styles.artifacts} aria-busy="true">
        <Spinner size="small" srText={null} /> <span className={styles.muted}>Loading artifacts</span>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className={styles.artifacts} role="alert">
        {ARTIFACTS_FETCH_ERROR}
      </div>
    );
  }
  const { artifacts } = query.data;
  if (artifacts.length === 0) return null;
  return (
    <section className={styles.artifacts} aria-label="Exposed artifacts">
      <Button size="small" variant="invisible" leadingVisual={open ? ChevronDownIcon : ChevronRightIcon} aria-expanded={open} onClick={() => setOpen(!open)}>
        {artifactsTitle(artifacts.length)}
      </Button>
      {open ? (
        <ul className={styles.list}>
          {artifacts.map((artifact) => (
            <li key={`${artifact.job_path}:${artifact.text}`}>
              <Link href={artifact.url} target="_blank" rel="noopener noreferrer nofollow">
                {artifact.text}
              </Link>
              <span className={styles.muted}>
                {' '}
                in <RouterLink to={artifact.job_path}>{artifact.job_name}</RouterLink>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
