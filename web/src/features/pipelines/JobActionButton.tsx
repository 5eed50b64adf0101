import { ClockIcon, PlayIcon, StopIcon, SyncIcon, XIcon, type Icon } from '@primer/octicons-react';
import { Button, IconButton, useConfirm } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api-error';
import { jobActionMutation, type Job, type JobAction } from './api';

const ACTIONS: Record<string, { action: JobAction; icon: Icon }> = {
  play: { action: 'play', icon: PlayIcon },
  retry: { action: 'retry', icon: SyncIcon },
  cancel: { action: 'cancel', icon: XIcon },
  // GitLab's Stop of a manual job that stops an environment: it is played (the play call)
  stop: { action: 'play', icon: StopIcon },
  // GitLab's `time-out` action: a delayed job back to manual
  'time-out': { action: 'unschedule', icon: ClockIcon },
};

/** GitLab's messages when a job action fails; the server's reason, when it gives one, follows. */
export const JOB_ACTION_FAILED: Record<JobAction, string> = {
  cancel: 'There was a problem canceling the job.',
  play: 'There was a problem running the job.',
  retry: 'There was a problem running the job again.',
  unschedule: 'There was a problem unscheduling the job.',
};

/**
 * The action GitLab offers on a job (its `detailed_status.action`: Run, Run again, Cancel, Stop, Unschedule), or
 * nothing. Running a manual job with a `manual_confirmation` asks first, with GitLab's texts; the button is
 * disabled while the call is under way, and the pipeline's and job's data are read again after it.
 */
export function JobActionButton({ projectId, job, onError, labelled = false }: { projectId: number; job: Job; onError?: (message: string) => void; labelled?: boolean }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const act = useMutation({
    ...jobActionMutation(projectId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['projects', projectId] }),
    onError: (error, { action: failed }) => onError?.(`${JOB_ACTION_FAILED[failed]} ${errorMessage(error)}`.trim()),
  });
  const action = job.detailed_status?.action;
  const known = action ? ACTIONS[action.icon] : undefined;
  if (!action || !known) return null;

  async function run() {
    // GitLab asks first only for a manual job with `manual_confirmation`; any other runs at once.
    const message = known!.action === 'play' ? action!.confirmation_message : null;
    if (message) {
      const confirmed = await confirm({
        title: `Are you sure you want to run ${job.name}?`,
        content: (
          <>
            <p>{`Custom confirmation message: ${message}`}</p>
            <p>Do you want to continue?</p>
          </>
        ),
        confirmButtonContent: `Yes, run ${job.name}`,
        cancelButtonContent: 'Cancel',
      });
      if (!confirmed) return;
    }
    act.mutate({ jobId: job.id, action: known!.action, path: action!.path });
  }

  if (labelled) {
    return (
      <Button leadingVisual={known.icon} aria-label={`${action.button_title}: ${job.name}`} disabled={act.isPending} onClick={() => void run()}>
        {action.title}
      </Button>
    );
  }
  return (
    <IconButton
      icon={known.icon}
      size="small"
      variant="invisible"
      aria-label={`${action.button_title}: ${job.name}`}
      title={action.button_title}
      // The browser's own tooltip (title): Primer's tooltip costs a component per button, and a
      // graph shows up to 2000 of them.
      unsafeDisableTooltip
      disabled={act.isPending}
      onClick={() => void run()}
    />
  );
}

/**
 * "Run" of a delayed job (`when: delayed`, scheduled) beside its Unschedule, as GitLab's jobs list
 * and job page offer it: the job runs now instead of at its time, after GitLab's confirmation.
 * Shown only with an action (the viewer may update the job's ref).
 */
export function RunDelayedJobButton({ projectId, job, onError, labelled = false }: { projectId: number; job: Job; onError?: (message: string) => void; labelled?: boolean }) {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const act = useMutation({
    ...jobActionMutation(projectId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['projects', projectId] }),
    onError: (error) => onError?.(`${JOB_ACTION_FAILED.play} ${errorMessage(error)}`.trim()),
  });
  if (job.status !== 'scheduled' || !job.detailed_status?.action) return null;

  async function run() {
    const confirmed = await confirm({
      title: 'Run the delayed job now?',
      content: `Are you sure you want to run ${job.name} immediately? This job will run automatically after its timer finishes.`,
      confirmButtonContent: 'OK',
      cancelButtonContent: 'Cancel',
    });
    if (confirmed) act.mutate({ jobId: job.id, action: 'play' });
  }

  const name = `Run job: ${job.name}`;
  if (labelled) {
    return (
      <Button leadingVisual={PlayIcon} aria-label={name} disabled={act.isPending} onClick={() => void run()}>
        Run
      </Button>
    );
  }
  return <IconButton icon={PlayIcon} size="small" variant="invisible" aria-label={name} title="Run job" unsafeDisableTooltip disabled={act.isPending} onClick={() => void run()} />;
}
