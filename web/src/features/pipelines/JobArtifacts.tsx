import { DownloadIcon, FileDirectoryIcon } from '@primer/octicons-react';
import { Button, Flash, Heading, Stack } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LinkButton } from '../../components/AppLink';
import { TimeAgo } from '../../components/TimeAgo';
import { errorMessage } from '../../lib/api-error';
import { formatBytes } from '../../lib/file-content';
import { urls } from '../../lib/routes';
import { artifactsDownloadUrl, keepArtifactsMutation, pipelineKeys, type Job } from './api';
import styles from './Pipelines.module.css';

/**
 * The job page's "Job artifacts" box (GitLab's sidebar block): when the archive expires (or that
 * it is kept), Keep for those who may update the job, Download and Browse. Nothing without an
 * archive.
 */
export function JobArtifacts({ projectId, fullPath, job, canUpdate }: { projectId: number; fullPath: string; job: Job; canUpdate: boolean }) {
  const queryClient = useQueryClient();
  const keep = useMutation({
    ...keepArtifactsMutation(projectId),
    onSuccess: (updated) => queryClient.setQueryData(pipelineKeys.job(projectId, job.id), updated),
  });
  if (!job.artifacts_file) return null;
  const expires = job.artifacts_expire_at ?? null;
  return (
    <section className={styles.artifacts} aria-labelledby="job-artifacts-heading">
      <Heading as="h3" id="job-artifacts-heading" style={{ fontSize: 14 }}>
        Job artifacts
      </Heading>
      <p className={styles.muted}>
        {expires ? (
          <>
            These artifacts will be removed <TimeAgo date={expires} />.
          </>
        ) : (
          'These artifacts are kept: they do not expire.'
        )}{' '}
        <span className={styles.mono}>
          {job.artifacts_file.filename} · {formatBytes(job.artifacts_file.size)}
        </span>
      </p>
      {keep.isError ? (
        <Flash variant="danger" role="alert">
          {errorMessage(keep.error)}
        </Flash>
      ) : null}
      <Stack direction="horizontal" gap="condensed" wrap="wrap">
        {expires && canUpdate ? (
          <Button size="small" disabled={keep.isPending} onClick={() => keep.mutate(job.id)}>
            Keep
          </Button>
        ) : null}
        <Button as="a" size="small" leadingVisual={DownloadIcon} href={artifactsDownloadUrl(projectId, job.id)} download>
          Download
        </Button>
        <LinkButton size="small" leadingVisual={FileDirectoryIcon} to={urls.jobArtifacts(fullPath, job.id)}>
          Browse
        </LinkButton>
      </Stack>
    </section>
  );
}
