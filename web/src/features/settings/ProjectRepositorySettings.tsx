import { Checkbox, FormControl, Select } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { CODE_OWNER_APPROVAL, CodeOwnerApprovalToggle } from './CodeOwnerApprovalToggle';
import { useState } from 'react';
import type { Project } from '../../lib/gitlab-types';
import { branchNamesQuery, protectBranchMutation, protectedBranchesQuery, settingsKeys, unprotectBranchMutation } from './api';
import { AccessLevelSelect, DEFAULT_PROTECTED_REF_ACCESS, describeAccess, ProtectedRefList, ProtectForm, RefPatternField, useProtectForm } from './ProtectedRefs';
import { ProtectedTagsSection } from './ProtectedTagsSection';
import { PushRulesSection } from './PushRulesSection';
import styles from './Settings.module.css';
import { SettingsForm, SettingsSection } from './SettingsSection';
import { useProjectSave } from './useProjectSave';

function BranchDefaults({ project }: { project: Project }) {
  const branches = useQuery(branchNamesQuery(project.id));
  const [branch, setBranch] = useState(project.default_branch ?? '');
  const { save, saving, error, saved } = useProjectSave(project);
  const names = branches.data ?? [];
  return (
    <SettingsSection
      title="Branch defaults"
      description="Set the default branch for this project. All merge requests and commits are made against this branch unless you specify a different one."
      defaultExpanded
    >
      <SettingsForm label="Branch defaults" saving={saving} error={error} saved={saved} onSubmit={() => save({ default_branch: branch })} canSave={branch !== ''}>
        <FormControl disabled={branches.isPending}>
          <FormControl.Label>Default branch</FormControl.Label>
          <Select value={branch} onChange={(event) => setBranch(event.target.value)}>
            {branch !== '' && !names.includes(branch) ? <Select.Option value={branch}>{branch}</Select.Option> : null}
            {names.map((name) => (
              <Select.Option key={name} value={name}>
                {name}
              </Select.Option>
            ))}
          </Select>
          {branches.isError ? <FormControl.Validation variant="error">Branches could not be loaded.</FormControl.Validation> : null}
          {branches.isSuccess && names.length === 0 ? <FormControl.Caption>The repository has no branches yet.</FormControl.Caption> : null}
        </FormControl>
      </SettingsForm>
    </SettingsSection>
  );
}

function ProtectedBranchList({ project }: { project: Project }) {
  return (
    <ProtectedRefList
      noun="branches"
      query={protectedBranchesQuery(project.id)}
      unprotectMutation={unprotectBranchMutation(project.id)}
      listKey={settingsKeys.protectedBranches(project.id)}
      keyOf={(branch) => branch.id}
      details={(branch) => (
        <>
          Allowed to merge: {describeAccess(branch.merge_access_levels)} · Allowed to push and merge: {describeAccess(branch.push_access_levels)}
          {branch.allow_force_push ? ' · Force push allowed' : ''}
          <CodeOwnerApprovalToggle projectId={project.id} branch={branch} />
        </>
      )}
    />
  );
}

function ProtectBranchForm({ project }: { project: Project }) {
  const [merge, setMerge] = useState<number>(DEFAULT_PROTECTED_REF_ACCESS);
  const [push, setPush] = useState<number>(DEFAULT_PROTECTED_REF_ACCESS);
  const [forcePush, setForcePush] = useState(false);
  const [codeOwners, setCodeOwners] = useState(false);
  const form = useProtectForm({
    mutation: protectBranchMutation(project.id),
    listKey: settingsKeys.protectedBranches(project.id),
    savedText: (created) => `Branch '${created.name}' is protected.`,
  });
  return (
    <ProtectForm
      label="Protect a branch"
      form={form}
      onSubmit={() => form.submit((name) => ({ name, merge_access_level: merge, push_access_level: push, allow_force_push: forcePush, code_owner_approval_required: codeOwners }))}
    >
      <RefPatternField kind="branch" example="release/*" placeholder="main, release/*" value={form.name} onChange={form.setName} showBlank={form.showBlank} />
      <AccessLevelSelect label="Allowed to merge" value={merge} onChange={setMerge} />
      <AccessLevelSelect label="Allowed to push and merge" value={push} onChange={setPush} />
      <FormControl>
        <Checkbox checked={forcePush} onChange={(event) => setForcePush(event.target.checked)} />
        <FormControl.Label>Allowed to force push</FormControl.Label>
        <FormControl.Caption>Allow all users with push access to force push.</FormControl.Caption>
      </FormControl>
      <FormControl>
        <Checkbox checked={codeOwners} onChange={(event) => setCodeOwners(event.target.checked)} />
        <FormControl.Label>{CODE_OWNER_APPROVAL.label}</FormControl.Label>
        <FormControl.Caption>{CODE_OWNER_APPROVAL.caption}</FormControl.Caption>
      </FormControl>
    </ProtectForm>
  );
}

/** `/-/settings/repository`: the default branch, push rules, protected branches and protected tags (GitLab's push rule, protected branches and tags APIs). */
export function ProjectRepositorySettings({ project }: { project: Project }) {
  return (
    <>
      <BranchDefaults project={project} />
      <PushRulesSection project={project} />
      <SettingsSection title="Protected branches" description="Keep stable branches secure and force developers to use merge requests." defaultExpanded>
        <div className={styles.form}>
          <ProtectBranchForm project={project} />
          <ProtectedBranchList project={project} />
        </div>
      </SettingsSection>
      <ProtectedTagsSection project={project} />
    </>
  );
}
