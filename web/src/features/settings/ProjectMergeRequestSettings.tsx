import { Checkbox, FormControl, Radio, RadioGroup, TextInput, Textarea } from '@primer/react';
import { useState } from 'react';
import { fieldError } from '../../components/FormError';
import type { Project } from '../../lib/gitlab-types';
import type { ProjectSettings } from './api';
import styles from './Settings.module.css';
import { SettingsForm, SettingsSection } from './SettingsSection';
import { useProjectSave } from './useProjectSave';

type MergeMethod = NonNullable<ProjectSettings['merge_method']>;
type SquashOption = NonNullable<ProjectSettings['squash_option']>;

/** GitLab's merge method choices and what each means. */
const MERGE_METHODS: { value: MergeMethod; label: string; caption: string }[] = [
  { value: 'merge', label: 'Merge commit', caption: 'Every merge creates a merge commit.' },
  {
    value: 'rebase_merge',
    label: 'Merge commit with semi-linear history',
    caption:
      'Every merge creates a merge commit. Merging is only allowed when the source branch is up to date with its target. When semi-linear merge is not possible, the user is given the option to rebase.',
  },
  {
    value: 'ff',
    label: 'Fast-forward merge',
    caption:
      'No merge commits are created. Merging is only allowed when the source branch is up to date with its target. When fast-forward merge is not possible, the user is given the option to rebase.',
  },
];

/** GitLab's 'Squash commits when merging' choices. */
const SQUASH_OPTIONS: { value: SquashOption; label: string; caption: string }[] = [
  { value: 'never', label: 'Do not allow', caption: 'Squashing is never performed and the checkbox is hidden.' },
  { value: 'default_off', label: 'Allow', caption: 'Checkbox is visible and unselected by default.' },
  { value: 'default_on', label: 'Encourage', caption: 'Checkbox is visible and selected by default.' },
  { value: 'always', label: 'Require', caption: 'Squashing is always performed. Checkbox is visible and selected, and users cannot change it.' },
];

function Choice<T extends string>({ name, legend, value, options, onChange }: { name: string; legend: string; value: T; options: { value: T; label: string; caption: string }[]; onChange: (value: T) => void }) {
  return (
    <RadioGroup name={name} onChange={(selected) => selected && onChange(selected as T)}>
      <RadioGroup.Label>{legend}</RadioGroup.Label>
      {options.map((option) => (
        <FormControl key={option.value}>
          <Radio value={option.value} checked={value === option.value} />
          <FormControl.Label>{option.label}</FormControl.Label>
          <FormControl.Caption>{option.caption}</FormControl.Caption>
        </FormControl>
      ))}
    </RadioGroup>
  );
}

function Flag({ label, checked, onChange, caption }: { label: string; checked: boolean; onChange: (checked: boolean) => void; caption?: string }) {
  return (
    <FormControl>
      <Checkbox checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <FormControl.Label>{label}</FormControl.Label>
      {caption ? <FormControl.Caption>{caption}</FormControl.Caption> : null}
    </FormControl>
  );
}

/**
 * `/-/settings/merge_requests`: every merge setting PUT /projects/:id has, in one form with
 * one 'Save changes' (GitLab's page). Text settings sent empty clear them.
 */
export function ProjectMergeRequestSettings({ project: given }: { project: Project }) {
  const project = given as ProjectSettings;
  const [mergeMethod, setMergeMethod] = useState<MergeMethod>(project.merge_method ?? 'merge');
  const [squash, setSquash] = useState<SquashOption>(project.squash_option ?? 'default_off');
  const [resolveOutdated, setResolveOutdated] = useState(project.resolve_outdated_diff_discussions ?? false);
  const [removeSource, setRemoveSource] = useState(project.remove_source_branch_after_merge ?? false);
  const [pipelines, setPipelines] = useState(project.only_allow_merge_if_pipeline_succeeds ?? false);
  const [skippedSucceeds, setSkippedSucceeds] = useState(project.allow_merge_on_skipped_pipeline ?? false);
  const [mergedResults, setMergedResults] = useState(project.merge_pipelines_enabled ?? false);
  const [threads, setThreads] = useState(project.only_allow_merge_if_all_discussions_are_resolved ?? false);
  const [mergeTemplate, setMergeTemplate] = useState(project.merge_commit_template ?? '');
  const [squashTemplate, setSquashTemplate] = useState(project.squash_commit_template ?? '');
  const [titleRegex, setTitleRegex] = useState(project.merge_request_title_regex ?? '');
  const [titleRegexDescription, setTitleRegexDescription] = useState(project.merge_request_title_regex_description ?? '');
  const { save, saving, error, saved } = useProjectSave(given);
  const validation = (field: string) => {
    const message = fieldError(error, field);
    return message ? <FormControl.Validation variant="error">{message}</FormControl.Validation> : null;
  };
  return (
    <SettingsSection title="Merge requests" description="Choose the merge method, merge options, merge checks, and squash options." defaultExpanded>
      <SettingsForm
        label="Merge requests"
        saving={saving}
        error={error}
        saved={saved}
        onSubmit={() =>
          save({
            merge_method: mergeMethod,
            squash_option: squash,
            resolve_outdated_diff_discussions: resolveOutdated,
            remove_source_branch_after_merge: removeSource,
            only_allow_merge_if_pipeline_succeeds: pipelines,
            allow_merge_on_skipped_pipeline: skippedSucceeds,
            merge_pipelines_enabled: mergedResults,
            only_allow_merge_if_all_discussions_are_resolved: threads,
            merge_commit_template: mergeTemplate,
            squash_commit_template: squashTemplate,
            merge_request_title_regex: titleRegex,
            merge_request_title_regex_description: titleRegexDescription,
          })
        }
      >
        <Choice name="merge_method" legend="Merge method" value={mergeMethod} options={MERGE_METHODS} onChange={setMergeMethod} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Merge options</legend>
          <Flag label="Automatically resolve merge request diff threads when they become outdated" checked={resolveOutdated} onChange={setResolveOutdated} />
          <Flag label={'Enable "Delete source branch" option by default'} checked={removeSource} onChange={setRemoveSource} caption="Existing merge requests and protected branches are not affected." />
          <Flag
            label="Enable merged results pipelines"
            checked={mergedResults}
            onChange={setMergedResults}
            caption="Merge request pipelines run on the result of merging the source branch into the target branch."
          />
        </fieldset>
        <Choice name="squash_option" legend="Squash commits when merging" value={squash} options={SQUASH_OPTIONS} onChange={setSquash} />
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>Merge checks</legend>
          <Flag label="Pipelines must succeed" checked={pipelines} onChange={setPipelines} caption="Merge requests can't be merged if the latest pipeline did not succeed or is still running." />
          {pipelines ? (
            <div className={styles.nested}>
              <Flag label="Skipped pipelines are considered successful" checked={skippedSucceeds} onChange={setSkippedSucceeds} caption="Introduces the risk of merging changes that do not pass the pipeline." />
            </div>
          ) : null}
          <Flag label="All threads must be resolved" checked={threads} onChange={setThreads} />
        </fieldset>
        <FormControl>
          <FormControl.Label>Merge commit message template</FormControl.Label>
          <Textarea block rows={4} value={mergeTemplate} onChange={(event) => setMergeTemplate(event.target.value)} placeholder="Merge branch '%{source_branch}' into '%{target_branch}'" />
          {validation('merge_commit_template') ?? <FormControl.Caption>Leave empty to use the default template.</FormControl.Caption>}
        </FormControl>
        <FormControl>
          <FormControl.Label>Squash commit message template</FormControl.Label>
          <Textarea block rows={3} value={squashTemplate} onChange={(event) => setSquashTemplate(event.target.value)} placeholder="%{title}" />
          {validation('squash_commit_template') ?? <FormControl.Caption>Leave empty to use the default template.</FormControl.Caption>}
        </FormControl>
        <FormControl>
          <FormControl.Label>Merge request title must match regex</FormControl.Label>
          <TextInput block value={titleRegex} onChange={(event) => setTitleRegex(event.target.value)} placeholder="^(feat|fix): " />
          {validation('merge_request_title_regex')}
        </FormControl>
        <FormControl>
          <FormControl.Label>Title regex description</FormControl.Label>
          <TextInput block value={titleRegexDescription} onChange={(event) => setTitleRegexDescription(event.target.value)} />
          {validation('merge_request_title_regex_description') ?? <FormControl.Caption>Shown to authors whose title does not match.</FormControl.Caption>}
        </FormControl>
      </SettingsForm>
    </SettingsSection>
  );
}
