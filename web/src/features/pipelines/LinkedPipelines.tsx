import { Link as RouterLink } from 'react-router-dom';
import type { LinkedPipeline } from './api';
import { StatusIcon } from './StatusBadge';
import styles from './Pipelines.module.css';

/**
 * GitLab's linked pipeline cards beside the graph: the pipeline that triggered this one
 * (Upstream, before the stages) or the ones its trigger jobs created (Downstream, after them).
 * Each card shows the status, the project, the pipeline number and the trigger job, and links to
 * the pipeline; in the same project they are labelled parent and child pipelines, as GitLab labels them.
 */
export function LinkedPipelines({ kind, pipelines, projectId }: { kind: 'Upstream' | 'Downstream'; pipelines: LinkedPipeline[]; projectId: number }) {
  if (pipelines.length === 0) return null;
  return (
    <section className={styles.linkedColumn} aria-label={`${kind} pipelines`}>
      <h3 className={styles.stageName}>{kind}</h3>
      <ul className={styles.linkedList}>
        {pipelines.map((pipeline) => {
          // in the same project the pipelines are parent and child; another project's is named by its project
          const label = pipeline.project.id === projectId ? (kind === 'Upstream' ? 'Parent pipeline' : 'Child pipeline') : pipeline.project.full_name;
          return (
            <li key={pipeline.id} className={styles.linkedCard} data-pipeline={pipeline.id}>
              <StatusIcon status={pipeline.details.status} />
              <div className={styles.linkedText}>
                <RouterLink to={pipeline.path} aria-label={`${kind} pipeline #${pipeline.id} of ${pipeline.project.name}: ${pipeline.details.status.text}`}>
                  {label}
                </RouterLink>
                <span className={styles.muted}>
                  #{pipeline.id}
                  {pipeline.source_job ? ` · ${pipeline.source_job.name}` : ''}
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
