import type { PipelineBasic, PipelineWithJobs } from './api';
import { PipelineRow } from './PipelineRow';
import styles from './Pipelines.module.css';

/**
 * The pipelines table of the project's list and the merge request's Pipelines tab: one row a
 * pipeline. Rows given with their jobs (the project's list) read nothing more.
 */
export function PipelinesTable({ pipelines, projectId, fullPath }: { pipelines: readonly (PipelineBasic | PipelineWithJobs)[]; projectId: (pipeline: PipelineBasic) => number; fullPath: (pipeline: PipelineBasic) => string }) {
  return (
    <table className={styles.table} aria-label="Pipelines">
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Pipeline</th>
          <th scope="col">Ref</th>
          <th scope="col">Source</th>
          <th scope="col">Triggerer</th>
          <th scope="col">Created</th>
          <th scope="col">Stages</th>
        </tr>
      </thead>
      <tbody>
        {pipelines.map((pipeline) => (
          <PipelineRow key={pipeline.id} projectId={projectId(pipeline)} fullPath={fullPath(pipeline)} basic={pipeline} details={'jobs' in pipeline ? pipeline : undefined} />
        ))}
      </tbody>
    </table>
  );
}
