import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { MergeRequestAwards } from '../emoji';
import { MarkdownBody } from '../markdown';
import { MergeRequestDeployments, MergeWidget } from '../merge-widget';
import { ActivitySection } from '../notes';
import styles from './MergeRequestPage.module.css';
import { MergeRequestSidebar } from './MergeRequestSidebar';

/**
 * The Overview tab: description, the merge widget, and the sidebar. The widget lives here
 * so that it is created only when the Overview tab becomes active.
 */
export function MergeRequestOverview({ project, mr, canUpdate, sourceProjectPath }: { project: Project; mr: MergeRequest; canUpdate: boolean; sourceProjectPath: string | null }) {
  return (
    <div className={styles.overview}>
      <div className={styles.main}>
        <section aria-label="Description" className={styles.description}>
          {mr.description?.trim() ? <MarkdownBody text={mr.description} project={mr.target_project_id} /> : <p className="fgMuted">No description provided.</p>}
          <MergeRequestAwards project={project} mr={mr} />
        </section>
        {mr.state === 'opened' || mr.state === 'merged' ? <MergeRequestDeployments fullPath={project.path_with_namespace} iid={mr.iid} merged={mr.state === 'merged'} /> : null}
        <MergeWidget project={project} mr={mr} />
        <ActivitySection project={project} mr={mr} />
      </div>
      <MergeRequestSidebar project={project} mr={mr} canUpdate={canUpdate} sourceProjectPath={sourceProjectPath} />
    </div>
  );
}
