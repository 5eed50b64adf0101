import { FormControl, TextInput, Textarea } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EntityAvatar } from '../../components/EntityAvatar';
import { fieldError } from '../../components/FormError';
import { errorMessage } from '../../lib/api-error';
import { projectKeys } from '../projects';
import { uploadProjectAvatar } from './api';
import styles from './Settings.module.css';
import { PROJECT_VISIBILITY_DESCRIPTIONS, VisibilityRadios } from '../../components/VisibilityRadios';
import type { Project, Visibility } from '../../lib/gitlab-types';
import { ProjectAdvancedSettings } from './ProjectAdvancedSettings';
import { currentFeatureLevels, ProjectFeatureFields, type FeatureLevels } from './ProjectFeatureFields';
import { SettingsForm, SettingsSection } from './SettingsSection';
import { useProjectSave } from './useProjectSave';

/** GitLab's 'Project avatar': an image up to 200 KiB, sent on its own (PUT /projects/:id, multipart). */
function AvatarField({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: (file: File) => uploadProjectAvatar(project.id, file),
    onSuccess: (updated) => queryClient.setQueryData(projectKeys.detail(project.path_with_namespace), updated),
  });
  return (
    <FormControl>
      <FormControl.Label>Project avatar</FormControl.Label>
      <div className={styles.avatarRow}>
        <EntityAvatar name={project.name} id={project.id} src={project.avatar_url ?? null} size={64} />
        <input
          type="file"
          accept="image/png,image/jpeg,image/gif,image/bmp,image/tiff,image/x-icon,image/webp"
          aria-label="Choose project avatar"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) upload.mutate(file);
          }}
        />
      </div>
      {upload.isPending ? <FormControl.Caption>Uploading…</FormControl.Caption> : null}
      {upload.isError ? <FormControl.Validation variant="error">{fieldError(upload.error, 'avatar') ?? errorMessage(upload.error)}</FormControl.Validation> : null}
      {upload.isSuccess ? <FormControl.Caption>Avatar saved.</FormControl.Caption> : null}
      {!upload.isPending && !upload.isError && !upload.isSuccess ? <FormControl.Caption>The maximum file size allowed is 200 KiB.</FormControl.Caption> : null}
    </FormControl>
  );
}

/** GitLab's 'Naming, description, topics': name and description. An empty name gets a message. */
function NamingSection({ project }: { project: Project }) {
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description ?? '');
  const [tried, setTried] = useState(false);
  const { save, saving, error, saved } = useProjectSave(project);
  const blank = name.trim() === '';
  return (
    <SettingsSection title="Naming, description, topics" description="Update your project name and description." defaultExpanded>
      <SettingsForm
        label="Naming, description, topics"
        saving={saving}
        error={error}
        saved={saved}
        onSubmit={() => {
          setTried(true);
          if (!blank) save({ name: name.trim(), description });
        }}
      >
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Project name</FormControl.Label>
          <TextInput block value={name} onChange={(event) => setName(event.target.value)} aria-invalid={tried && blank} />
          {tried && blank ? (
            <FormControl.Validation variant="error">Please enter a project name.</FormControl.Validation>
          ) : fieldError(error, 'name') ? (
            <FormControl.Validation variant="error">{fieldError(error, 'name')}</FormControl.Validation>
          ) : null}
        </FormControl>
        <FormControl>
          <FormControl.Label>Project ID</FormControl.Label>
          <TextInput block value={String(project.id)} readOnly />
        </FormControl>
        <FormControl>
          <FormControl.Label>Project description (optional)</FormControl.Label>
          <Textarea block rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
      </SettingsForm>
      <div className={styles.avatarField}>
        <AvatarField project={project} />
      </div>
    </SettingsSection>
  );
}

/** GitLab's 'Visibility, project features, permissions'. Who may change visibility is the API's rule; its refusal shows here. */
function VisibilitySection({ project }: { project: Project }) {
  const [visibility, setVisibility] = useState<Visibility>(project.visibility);
  const [levels, setLevels] = useState<FeatureLevels>(() => currentFeatureLevels(project));
  const [publicJobs, setPublicJobs] = useState(project.public_jobs !== false);
  const { save, saving, error, saved } = useProjectSave(project);
  return (
    <SettingsSection title="Visibility, project features, permissions" description="Choose visibility level, enable/disable project features and their permissions.">
      <SettingsForm
        label="Visibility, project features, permissions"
        saving={saving}
        error={error}
        saved={saved}
        onSubmit={() => save({ ...(visibility === project.visibility ? {} : { visibility }), ...levels, public_jobs: publicJobs })}
      >
        <VisibilityRadios value={visibility} onChange={setVisibility} descriptions={PROJECT_VISIBILITY_DESCRIPTIONS} />
        <ProjectFeatureFields levels={levels} onChange={setLevels} publicJobs={publicJobs} onPublicJobsChange={setPublicJobs} error={error} />
      </SettingsForm>
    </SettingsSection>
  );
}

/** `/<project>/edit`: General settings. */
export function ProjectGeneralSettings({ project }: { project: Project }) {
  return (
    <>
      <NamingSection project={project} />
      <VisibilitySection project={project} />
      <ProjectAdvancedSettings project={project} />
    </>
  );
}
