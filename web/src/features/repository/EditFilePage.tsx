import { useSearchParams } from 'react-router-dom';
import type { Project } from '../../lib/gitlab-types';
import { RefGate } from './RefGate';
import { SingleFileEditor } from './SingleFileEditor';

/**
 * `/<path>/-/edit/<ref>/<file>`: GitLab's single-file editor, which diffs link to.
 * `?from_merge_request_iid=` (GitLab's parameter) returns to that merge request's changes.
 */
export function EditFilePage({ project, refAndPath }: { project: Project; refAndPath: string }) {
  const [search] = useSearchParams();
  const iid = Number(search.get('from_merge_request_iid'));
  const origin = { mergeRequestIid: Number.isSafeInteger(iid) && iid > 0 ? iid : null };
  return <RefGate projectId={project.id} refAndPath={refAndPath}>{(ref, path) => <SingleFileEditor project={project} ref={ref} path={path} origin={origin} />}</RefGate>;
}
