import { DownloadIcon } from '@primer/octicons-react';
import { ActionList, ActionMenu } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { API_PREFIX } from '../../../lib/api-client';
import { pipelineJobsQuery } from '../../pipelines';

/** GitLab's strings for the pipeline's artifacts dropdown. */
export const PIPELINE_ARTIFACTS = { button: 'Artifacts', header: 'Download artifacts' } as const;

/** The download of a job's archive (the jobs API). */
export const jobArchiveUrl = (projectId: number, jobId: number) => `${API_PREFIX}/projects/${projectId}/jobs/${jobId}/artifacts`;

/**
 * The pipeline container's artifacts dropdown (GitLab's pipeline artifacts: each job's archive,
 * named by the job, downloaded at once). It reads the jobs the mini graph reads (the same query,
 * fetched once) and shows nothing while no job has an archive.
 */
export function PipelineArtifacts({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const jobs = useQuery(pipelineJobsQuery(projectId, pipelineId, false));
  const withArchive = (jobs.data ?? []).filter((job) => job.artifacts_file);
  if (withArchive.length === 0) return null;
  return (
    <ActionMenu>
      <ActionMenu.Button size="small" leadingVisual={DownloadIcon}>
        {PIPELINE_ARTIFACTS.button}
      </ActionMenu.Button>
      <ActionMenu.Overlay width="medium">
        <ActionList>
          <ActionList.Group>
            <ActionList.GroupHeading>{PIPELINE_ARTIFACTS.header}</ActionList.GroupHeading>
            {withArchive.map((job) => (
              <ActionList.LinkItem key={job.id} href={jobArchiveUrl(projectId, job.id)} download>
                <ActionList.LeadingVisual>
                  <DownloadIcon />
                </ActionList.LeadingVisual>
                {job.name}
              </ActionList.LinkItem>
            ))}
          </ActionList.Group>
        </ActionList>
      </ActionMenu.Overlay>
    </ActionMenu>
  );
}
