import type { WidgetHeadPipeline } from '@tributary/contracts/merge-widget';
import { TestSummary } from './TestSummary';

/**
 * The merge widget's report sections for the head pipeline (GitLab's widget extensions): the
 * test summary. Each hides itself when the pipeline has no such report.
 */
export function ReportWidgets({ fullPath, iid, pipeline }: { fullPath: string; iid: number; pipeline: WidgetHeadPipeline }) {
  return <TestSummary fullPath={fullPath} iid={iid} pipeline={pipeline} />;
}
