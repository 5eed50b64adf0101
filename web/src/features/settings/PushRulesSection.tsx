import { Checkbox, FormControl, Spinner, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageError } from '../../components/PageError';
import { ApiError } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import { pushRuleQuery, savePushRuleMutation, settingsKeys, type PushRule } from './api';
import { SettingsForm, SettingsSection } from './SettingsSection';

/** GitLab's push rule checkboxes, in its order and words. */
const CHECKS = [
  { field: 'commit_committer_check', label: 'Reject unverified users', caption: 'Users can only push commits to this repository if the committer email is one of their own verified emails.' },
  { field: 'reject_unsigned_commits', label: 'Reject unsigned commits', caption: 'Only signed commits can be pushed to this repository.' },
  { field: 'deny_delete_tag', label: 'Do not allow users to remove Git tags with git push', caption: 'Users can still delete tags through the GitLab UI.' },
  { field: 'member_check', label: 'Check whether the commit author is a GitLab user', caption: 'Restrict commits to existing GitLab users.' },
  { field: 'prevent_secrets', label: 'Prevent pushing secret files', caption: 'Reject any files likely to contain secrets.' },
] as const;

/** GitLab's push rule patterns (RE2, checked by the server). */
const PATTERNS = [
  {
    field: 'commit_message_regex',
    label: 'Require expression in commit messages',
    caption: 'All commit messages must match this regular expression. If empty, commit messages are not required to match any expression.',
  },
  {
    field: 'commit_message_negative_regex',
    label: 'Reject expression in commit messages',
    caption: 'Commit messages cannot match this regular expression. If empty, commit messages are not rejected based on any expression.',
  },
  { field: 'branch_name_regex', label: 'Branch name', caption: 'All branch names must match this regular expression. If empty, any branch name is allowed.' },
  { field: 'author_email_regex', label: "Commit author's email", caption: "All commit author's email must match this regular expression. If empty, any email is allowed." },
  { field: 'file_name_regex', label: 'Prohibited file names', caption: 'All committed filenames cannot match this regular expression. If empty, any filename is allowed.' },
] as const;

type Flags = Record<(typeof CHECKS)[number]['field'], boolean>;
type Patterns = Record<(typeof PATTERNS)[number]['field'], string>;

function PushRuleForm({ project, rule }: { project: Project; rule: PushRule | null }) {
  const queryClient = useQueryClient();
  const [flags, setFlags] = useState<Flags>(() => Object.fromEntries(CHECKS.map(({ field }) => [field, rule?.[field] ?? false])) as Flags);
  const [patterns, setPatterns] = useState<Patterns>(() => Object.fromEntries(PATTERNS.map(({ field }) => [field, rule?.[field] ?? ''])) as Patterns);
  const [maxFileSize, setMaxFileSize] = useState(String(rule?.max_file_size ?? 0));
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    ...savePushRuleMutation(project.id),
    onMutate: () => setSaved(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(settingsKeys.pushRule(project.id), updated);
      setSaved('Push rules updated');
    },
  });
  const sizeInvalid = !/^\d+$/.test(maxFileSize.trim());
  const problem = (field: string) => (save.error instanceof ApiError ? save.error.fieldErrors[field]?.join(', ') : undefined);
  return (
    <SettingsForm
      label="Push rules"
      submitLabel="Save push rules"
      saving={save.isPending}
      error={save.error}
      saved={saved}
      canSave={!sizeInvalid}
      onSubmit={() => save.mutate({ exists: rule !== null, body: { ...flags, ...patterns, max_file_size: Number(maxFileSize.trim()) } })}
    >
      {CHECKS.map(({ field, label, caption }) => (
        <FormControl key={field}>
          <Checkbox checked={flags[field]} onChange={(event) => setFlags({ ...flags, [field]: event.target.checked })} />
          <FormControl.Label>{label}</FormControl.Label>
          <FormControl.Caption>{caption}</FormControl.Caption>
        </FormControl>
      ))}
      {PATTERNS.map(({ field, label, caption }) => (
        <FormControl key={field}>
          <FormControl.Label>{label}</FormControl.Label>
          <TextInput block monospace value={patterns[field]} onChange={(event) => setPatterns({ ...patterns, [field]: event.target.value })} aria-invalid={problem(field) !== undefined} />
          {problem(field) ? <FormControl.Validation variant="error">{`${label} is ${problem(field)}`}</FormControl.Validation> : <FormControl.Caption>{caption}</FormControl.Caption>}
        </FormControl>
      ))}
      <FormControl>
        <FormControl.Label>Maximum file size (MB)</FormControl.Label>
        <TextInput type="number" min={0} value={maxFileSize} onChange={(event) => setMaxFileSize(event.target.value)} aria-invalid={sizeInvalid} />
        {sizeInvalid ? (
          <FormControl.Validation variant="error">Please enter 0 or a whole number of megabytes.</FormControl.Validation>
        ) : (
          <FormControl.Caption>Pushes that contain added or updated files that exceed this file size are rejected. Set to 0 to allow files of any size.</FormControl.Caption>
        )}
      </FormControl>
    </SettingsForm>
  );
}

/** Settings → Repository → 'Push rules' (GitLab's /projects/:id/push_rule; Maintainers and above reach the page). */
export function PushRulesSection({ project }: { project: Project }) {
  const rule = useQuery(pushRuleQuery(project.id));
  return (
    <SettingsSection title="Push rules" description="Restrict push operations for this project.">
      {rule.isPending ? (
        <Spinner size="small" aria-label="Loading push rules" />
      ) : rule.isError ? (
        <PageError title="Push rules could not be loaded." error={rule.error} onRetry={() => void rule.refetch()} />
      ) : (
        <PushRuleForm project={project} rule={rule.data} />
      )}
    </SettingsSection>
  );
}
