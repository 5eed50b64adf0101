import type { PipelineBasic } from './api';
import { PipelineRow } from './PipelineRow';
import { DataTable } from '../../components/DataTable';

/** The pipelines table of the project's list and the merge request's Pipelines tab: one row a pipeline. */
export function PipelinesTable({ pipelines, projectId, fullPath }: { pipelines: readonly PipelineBasic[]; projectId: (pipeline: PipelineBasic) => number; fullPath: (pipeline: PipelineBasic) => string }) {
  return (
    <DataTable label="Pipelines" columns={['Status', 'Pipeline', 'Ref', 'Source', 'Triggerer', 'Created', 'Stages']}>
      {pipelines.map((pipeline) => (
        <PipelineRow key={pipeline.id} projectId={projectId(pipeline)} fullPath={fullPath(pipeline)} basic={pipeline} />
      ))}
    </DataTable>
  );
}
