import { Button, Checkbox, Flash, FormControl, Label, Spinner, Text, TextInput, useConfirm } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { FormError } from '../../../components/FormError';
import { PageError } from '../../../components/PageError';
import type { Project } from '../../../lib/gitlab-types';
import { SettingsForm, SettingsSection } from '../SettingsSection';
import settingsStyles from '../Settings.module.css';
import { createRunnerMutation, pauseRunnerMutation, projectRunnersQuery, removeRunnerMutation, runnerKeys, type CreatedRunner, type Runner } from './api';
import { parseTags, registerCommands, runnerName, STATUS_LABELS, TYPE_LABELS } from './runner-display';
import styles from './Runners.module.css';

function RunnerRow({ project, runner }: { project: Project; runner: Runner }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const refresh = () => queryClient.invalidateQueries({ queryKey: runnerKeys.project(project.id) });
  const pause = useMutation({ ...pauseRunnerMutation(project.id), onSuccess: refresh });
  const remove = useMutation({ ...removeRunnerMutation(project.id), onSuccess: refresh });
  const name = runnerName(runner);
  const status = STATUS_LABELS[runner.status];
  // Instance and group runners are managed where they belong; a project's Maintainers manage its own.
  const manageable = runner.runner_type === 'project_type';
  return (
    <li className={settingsStyles.listRow}>
      <div className={styles.runner}>
        <div className={styles.runnerTitle}>
          <Label variant={status.variant}>{status.text}</Label>
          {runner.paused && runner.status !== 'paused' ? <Label variant="attention">Paused</Label> : null}
          <strong>{name}</strong>
          <Text className={settingsStyles.muted}>
            #{runner.id} · {TYPE_LABELS[runner.runner_type]}
          </Text>
        </div>
        <FormError error={pause.error ?? remove.error} title="The runner could not be changed." />
      </div>
      {manageable ? (
        <div className={styles.actions}>
          <Button size="small" aria-label={`${runner.paused ? 'Resume' : 'Pause'} ${name}`} loading={pause.isPending} onClick={() => pause.mutate({ id: runner.id, paused: !runner.paused })}>
            {runner.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button
            size="small"
            variant="danger"
            aria-label={`Remove ${name}`}
            loading={remove.isPending}
            onClick={async () => {
              const yes = await confirm({
                title: 'Remove runner',
                content: `Runner ${name} will be removed and can no longer pick up jobs. Are you sure?`,
                confirmButtonContent: 'Remove runner',
                confirmButtonType: 'danger',
              });
              if (yes) remove.mutate(runner.id);
            }}
          >
            Remove
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function RunnerList({ project }: { project: Project }) {
  const list = useQuery(projectRunnersQuery(project.id));
  if (list.isPending) return <Spinner size="small" aria-label="Loading runners" />;
  if (list.isError) return <PageError title="Runners could not be loaded." error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Text className={settingsStyles.muted}>This project has no runners yet.</Text>;
  return (
    <ul className={settingsStyles.list} aria-label="Runners">
      {list.data.map((runner) => (
        <RunnerRow key={runner.id} project={project} runner={runner} />
      ))}
    </ul>
  );
}

/** The new runner's token, shown once, and the commands that start a runner with it. */
function NewRunnerToken({ created, onDone }: { created: CreatedRunner; onDone: () => void }) {
  const id = useId();
  const url = window.location.origin;
  return (
    <Flash variant="success" className={styles.banner}>
      <Text as="p" className={styles.bannerTitle}>
        Runner #{created.id} created.
      </Text>
      <label htmlFor={id}>Runner authentication token</label>
      <div className={styles.copyRow}>
        <TextInput id={id} readOnly value={created.token} monospace block onFocus={(event) => event.currentTarget.select()} />
        <CopyButton text={created.token} label="Copy runner authentication token" />
      </div>
      <Text as="p" className={styles.warning}>
        Make sure you save it - you won't be able to access it again.
      </Text>
      <Text as="p">Register the runner on the machine that will run the jobs, with either command:</Text>
      {registerCommands(url, created.token).map(({ label, command }) => (
        <div key={label} className={styles.copyRow}>
          <code className={styles.command} aria-label={`${label} command`}>
            {command}
          </code>
          <CopyButton text={command} label={`Copy ${label} command`} />
        </div>
      ))}
      <div>
        <Button onClick={onDone}>Done</Button>
      </div>
    </Flash>
  );
}

function NewRunnerForm({ project, onCreated }: { project: Project; onCreated: (created: CreatedRunner) => void }) {
  const queryClient = useQueryClient();
  const [tags, setTags] = useState('');
  const [runUntagged, setRunUntagged] = useState(false);
  const [description, setDescription] = useState('');
  const [paused, setPaused] = useState(false);
  const [protectedOnly, setProtectedOnly] = useState(false);
  const [timeout, setTimeoutText] = useState('');
  const [tried, setTried] = useState(false);
  const create = useMutation({
    ...createRunnerMutation(project.id),
    onSuccess: (created) => {
      onCreated(created);
      void queryClient.invalidateQueries({ queryKey: runnerKeys.project(project.id) });
    },
  });
  const tagList = parseTags(tags);
  const needsTags = !runUntagged && tagList.length === 0;
  const timeoutSeconds = timeout.trim() === '' ? undefined : Number(timeout);
  const badTimeout = timeoutSeconds !== undefined && (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 600);
  return (
    <SettingsForm
      label="New project runner"
      submitLabel="Create runner"
      saving={create.isPending}
      error={create.error}
      saved={null}
      onSubmit={() => {
        setTried(true);
        if (needsTags || badTimeout) return;
        create.mutate({
          runner_type: 'project_type',
          project_id: project.id,
          description: description.trim(),
          tag_list: tagList,
          run_untagged: runUntagged,
          paused,
          access_level: protectedOnly ? 'ref_protected' : 'not_protected',
          ...(timeoutSeconds === undefined ? {} : { maximum_timeout: timeoutSeconds }),
        });
      }}
    >
      <FormControl>
        <FormControl.Label>Tags</FormControl.Label>
        <TextInput value={tags} onChange={(event) => setTags(event.target.value)} placeholder="macos, shared" />
        {tried && needsTags ? (
          <FormControl.Validation variant="error">Add tags or select 'Run untagged jobs'.</FormControl.Validation>
        ) : (
          <FormControl.Caption>Separate multiple tags with a comma. Jobs with these tags use this runner.</FormControl.Caption>
        )}
      </FormControl>
      <FormControl>
        <Checkbox checked={runUntagged} onChange={(event) => setRunUntagged(event.target.checked)} />
        <FormControl.Label>Run untagged jobs</FormControl.Label>
        <FormControl.Caption>Use the runner for jobs without tags in addition to tagged jobs.</FormControl.Caption>
      </FormControl>
      <FormControl>
        <FormControl.Label>Runner description</FormControl.Label>
        <TextInput value={description} onChange={(event) => setDescription(event.target.value)} />
      </FormControl>
      <FormControl>
        <Checkbox checked={paused} onChange={(event) => setPaused(event.target.checked)} />
        <FormControl.Label>Paused</FormControl.Label>
        <FormControl.Caption>Stop the runner from accepting new jobs.</FormControl.Caption>
      </FormControl>
      <FormControl>
        <Checkbox checked={protectedOnly} onChange={(event) => setProtectedOnly(event.target.checked)} />
        <FormControl.Label>Protected</FormControl.Label>
        <FormControl.Caption>Use the runner on pipelines for protected branches only.</FormControl.Caption>
      </FormControl>
      <FormControl>
        <FormControl.Label>Maximum job timeout</FormControl.Label>
        <TextInput value={timeout} onChange={(event) => setTimeoutText(event.target.value)} inputMode="numeric" placeholder="3600" />
        {tried && badTimeout ? (
          <FormControl.Validation variant="error">Enter a number of seconds, at least 600.</FormControl.Validation>
        ) : (
          <FormControl.Caption>Maximum amount of time the runner can run before it terminates, in seconds (at least 600).</FormControl.Caption>
        )}
      </FormControl>
    </SettingsForm>
  );
}

/** The CI/CD settings' Runners section: the runners the project can use, and creating its own (GitLab's runners API). */
export function RunnersSection({ project }: { project: Project }) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedRunner | null>(null);
  return (
    <SettingsSection title="Runners" description="Runners are processes that pick up and execute CI/CD jobs." defaultExpanded>
      <div className={settingsStyles.form}>
        {created ? <NewRunnerToken created={created} onDone={() => setCreated(null)} /> : null}
        {creating ? (
          <>
            <NewRunnerForm
              project={project}
              onCreated={(runner) => {
                setCreating(false);
                setCreated(runner);
              }}
            />
            <div>
              <Button onClick={() => setCreating(false)}>Cancel</Button>
            </div>
          </>
        ) : (
          <div>
            <Button variant="primary" onClick={() => setCreating(true)}>
              New project runner
            </Button>
          </div>
        )}
        <RunnerList project={project} />
      </div>
    </SettingsSection>
  );
}
