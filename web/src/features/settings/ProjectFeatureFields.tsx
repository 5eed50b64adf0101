import { Checkbox, FormControl, Select } from '@primer/react';
import { featureField, type FeatureLevelName, type ProjectFeature } from '@tributary/contracts/project-features';
import { ApiError } from '../../lib/api-error';
import type { Project } from '../../lib/gitlab-types';
import styles from './Settings.module.css';

/** The features GitLab's 'Visibility, project features, permissions' section lists, in its order and words. */
export const FEATURE_CHOICES: ReadonlyArray<{ feature: ProjectFeature; label: string; caption: string }> = [
  { feature: 'issues', label: 'Issues', caption: 'Flexible tool to collaboratively develop ideas and plan work in this project.' },
  { feature: 'repository', label: 'Repository', caption: 'View and edit files in this project.' },
  { feature: 'merge_requests', label: 'Merge requests', caption: 'Submit changes to be merged upstream.' },
  { feature: 'forking', label: 'Forks', caption: 'Users can copy the repository to a new project.' },
  { feature: 'builds', label: 'CI/CD', caption: 'Build, test, and deploy your changes.' },
  { feature: 'container_registry', label: 'Container registry', caption: 'Every project can have its own space to store its Docker images.' },
  { feature: 'analytics', label: 'Analytics', caption: 'View project analytics.' },
  { feature: 'wiki', label: 'Wiki', caption: 'Pages for project documentation.' },
  { feature: 'snippets', label: 'Snippets', caption: 'Share code with others outside the project.' },
  { feature: 'pages', label: 'Pages', caption: 'With GitLab Pages you can host your static websites on GitLab.' },
];

export type FeatureLevels = Partial<Record<string, FeatureLevelName>>;

/** The project's current levels, by API field. */
export function currentFeatureLevels(project: Project): FeatureLevels {
  return Object.fromEntries(FEATURE_CHOICES.map(({ feature }) => [featureField(feature), project[featureField(feature)] ?? 'enabled']));
}

/** GitLab's choices: members only and everyone with access; pages also take everyone. */
const optionsFor = (feature: ProjectFeature): Array<{ value: FeatureLevelName; label: string }> => [
  { value: 'disabled', label: 'Disabled' },
  { value: 'private', label: 'Only project members' },
  { value: 'enabled', label: 'Everyone with access' },
  ...(feature === 'pages' ? [{ value: 'public' as const, label: 'Everyone' }] : []),
];

/**
 * One select per feature and the 'Public pipelines' box. The rules (merge requests and CI no
 * more open than the repository, 'Everyone' only for pages) are the API's; its refusal shows
 * under the field it names.
 */
export function ProjectFeatureFields({
  levels,
  onChange,
  publicJobs,
  onPublicJobsChange,
  error,
}: {
  levels: FeatureLevels;
  onChange: (levels: FeatureLevels) => void;
  publicJobs: boolean;
  onPublicJobsChange: (value: boolean) => void;
  error: unknown;
}) {
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Project features</legend>
      {FEATURE_CHOICES.map(({ feature, label, caption }) => {
        const field = featureField(feature);
        const problem = error instanceof ApiError ? error.fieldErrors[`project_feature.${field}`]?.join(', ') : undefined;
        return (
          <FormControl key={feature}>
            <FormControl.Label>{label}</FormControl.Label>
            <Select value={levels[field] ?? 'enabled'} onChange={(event) => onChange({ ...levels, [field]: event.target.value as FeatureLevelName })}>
              {optionsFor(feature).map((option) => (
                <Select.Option key={option.value} value={option.value}>
                  {option.label}
                </Select.Option>
              ))}
            </Select>
            {problem ? <FormControl.Validation variant="error">{`${label} ${problem}`}</FormControl.Validation> : <FormControl.Caption>{caption}</FormControl.Caption>}
          </FormControl>
        );
      })}
      <FormControl>
        <Checkbox checked={publicJobs} onChange={(event) => onPublicJobsChange(event.target.checked)} />
        <FormControl.Label>Public pipelines</FormControl.Label>
        <FormControl.Caption>Allow public access to pipelines and job details, including output logs and artifacts.</FormControl.Caption>
      </FormControl>
    </fieldset>
  );
}
