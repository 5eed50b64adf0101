import type { PipelineBasic, PipelineWithJobs } from './api';
import { PipelineRow } from './PipelineRow';
import { DataTable } from '../../components/DataTable';

/**
 * The pipelines table of the project's list and the merge request's Pipelines tab: one row a
 * pipeline. Rows given with their jobs (the project's list) read nothing more.
 */
export function PipelinesTable({ pipelines, projectId, fullPath }: { pipelines: readonly (PipelineBasic | PipelineWithJobs)[]; projectId: (pipeline: PipelineBasic) => number; fullPath: (pipeline: PipelineBasic) => string }) {
  return (
    <DataTable label="Pipelines" columns={['Status', 'Pipeline', 'Ref', 'Source', 'Triggerer', 'Created', 'Stages']}>
      {pipelines.map((pipeline) => (
        <PipelineRow key={pipeline.id} projectId={projectId(pipeline)} fullPath={fullPath(pipeline)} basic={pipeline} details={'jobs' in pipeline ? pipeline : undefined} />
      ))}
    </DataTable>
  );
}
