import type { WidgetHeadPipeline } from '@tributary/contracts/merge-widget';
import { PipelineCoverage } from './PipelineCoverage';
import { TestSummary } from './TestSummary';

/**
 * The merge widget's report sections for the head pipeline (GitLab's pipeline coverage line and
 * widget extensions): the coverage with its change against the target's pipeline, and the test
 * summary. Each hides itself when the pipeline has no such report.
 */
export function ReportWidgets({ fullPath, iid, pipeline, coverageDelta, jobsWithCoverage }: { fullPath: string; iid: number; pipeline: WidgetHeadPipeline; coverageDelta: string | null; jobsWithCoverage: { name: string; coverage: number }[] }) {
  return (
    <>
      {pipeline.coverage !== null ? <PipelineCoverage coverage={pipeline.coverage} delta={coverageDelta} jobs={jobsWithCoverage} /> : null}
      <TestSummary fullPath={fullPath} iid={iid} pipeline={pipeline} />
    </>
  );
}
