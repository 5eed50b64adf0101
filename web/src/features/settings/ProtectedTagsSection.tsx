import { useConfirm } from '@primer/react';
import { useState } from 'react';
import type { Project } from '../../lib/gitlab-types';
import { protectedTagsQuery, protectTagMutation, settingsKeys, unprotectTagMutation } from './api';
import { AccessLevelSelect, DEFAULT_PROTECTED_REF_ACCESS, describeAccess, ProtectedRefList, ProtectForm, RefPatternField, useProtectForm } from './ProtectedRefs';
import styles from './Settings.module.css';
import { SettingsSection } from './SettingsSection';

function ProtectedTagList({ project }: { project: Project }) {
  const confirm = useConfirm();
  return (
    <ProtectedRefList
      noun="tags"
      query={protectedTagsQuery(project.id)}
      unprotectMutation={unprotectTagMutation(project.id)}
      listKey={settingsKeys.protectedTags(project.id)}
      keyOf={(tag) => tag.name}
      details={(tag) => `Allowed to create: ${describeAccess(tag.create_access_levels)}`}
      confirmUnprotect={(name) =>
        confirm({
          title: 'Unprotect tag',
          content: `Tag ${name} will be writable for developers. Are you sure?`,
          confirmButtonContent: 'Unprotect tag',
          confirmButtonType: 'danger',
        })
      }
    />
  );
}

function ProtectTagForm({ project }: { project: Project }) {
  const [create, setCreate] = useState<number>(DEFAULT_PROTECTED_REF_ACCESS);
  const form = useProtectForm({
    mutation: protectTagMutation(project.id),
    listKey: settingsKeys.protectedTags(project.id),
    savedText: (created) => `Tag '${created.name}' is protected.`,
  });
  return (
    <ProtectForm label="Protect a tag" form={form} onSubmit={() => form.submit((name) => ({ name, create_access_level: create }))}>
      <RefPatternField kind="tag" example="v*" placeholder="v1.0, v*" value={form.name} onChange={form.setName} showBlank={form.showBlank} />
      <AccessLevelSelect label="Allowed to create" value={create} onChange={setCreate} />
    </ProtectForm>
  );
}

/** The Repository settings' "Protected tags" section (GitLab's protected tags API). */
export function ProtectedTagsSection({ project }: { project: Project }) {
  return (
    <SettingsSection title="Protected tags" description="Limit access to creating and updating tags." defaultExpanded>
      <div className={styles.form}>
        <ProtectTagForm project={project} />
        <ProtectedTagList project={project} />
      </div>
    </SettingsSection>
  );
}
