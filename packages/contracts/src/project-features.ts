/**
 * Project features (GitLab's ProjectFeature): each feature has an access level, written in the
 * API as a word and stored as GitLab's number. Shared by the server (validation, permissions)
 * and the web app (the "Visibility, project features, permissions" settings).
 */
import { AccessLevel, type Visibility } from './access-levels.js';
export const PROJECT_FEATURES = [
  'repository',
  'merge_requests',
  'issues',
  'builds',
  'forking',
  'wiki',
  'snippets',
  'pages',
  'analytics',
  'container_registry',
  'package_registry',
  'security_and_compliance',
  'releases',
  'environments',
  'feature_flags',
  'infrastructure',
  'monitor',
  'model_experiments',
  'model_registry',
] as const;
export type ProjectFeature = (typeof PROJECT_FEATURES)[number];

/** GitLab's Featurable levels: disabled 0, private (members only) 10, enabled (everyone with access) 20, public 30. */
export const FEATURE_LEVELS = { disabled: 0, private: 10, enabled: 20, public: 30 } as const;
export type FeatureLevelName = keyof typeof FEATURE_LEVELS;
export const FEATURE_LEVEL_NAMES = Object.keys(FEATURE_LEVELS) as FeatureLevelName[];

export const featureLevelName = (level: number): FeatureLevelName =>
  (FEATURE_LEVEL_NAMES.find((name) => FEATURE_LEVELS[name] === level) ?? 'enabled');

/** `merge_requests` → `merge_requests_access_level` (the API field and the column). */
export const featureField = (feature: ProjectFeature) => `${feature}_access_level` as const;
export type FeatureField = ReturnType<typeof featureField>;

/**
 * GitLab's legacy booleans (`merge_requests_enabled`, `jobs_enabled`, …): true is "enabled",
 * false "disabled"; reading one is "not disabled".
 */
export const LEGACY_FEATURE_BOOLEANS = {
  issues_enabled: 'issues',
  merge_requests_enabled: 'merge_requests',
  jobs_enabled: 'builds',
  wiki_enabled: 'wiki',
  snippets_enabled: 'snippets',
  container_registry_enabled: 'container_registry',
} as const satisfies Record<string, ProjectFeature>;
export type LegacyFeatureBoolean = keyof typeof LEGACY_FEATURE_BOOLEANS;

/** Features whose level may not be higher than the repository's (merge requests and CI need the code). */
export const REPOSITORY_CHILDREN: readonly ProjectFeature[] = ['merge_requests', 'builds'];
/** Features that take 'public' (GitLab's feature_validation_exclusion); the rest stop at 'enabled'. */
export const PUBLIC_LEVEL_FEATURES: readonly ProjectFeature[] = ['pages', 'package_registry'];

/**
 * The lowest role that uses a 'private' (members only) feature, GitLab's
 * ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL: Reporters for merge requests, the
 * registries and environments; for the repository Guests, but Reporters on a private project;
 * Guests otherwise.
 */
export function featureMinimumAccessLevel(feature: ProjectFeature, visibility: Visibility): number {
  if (feature === 'repository') return visibility === 'private' ? AccessLevel.Reporter : AccessLevel.Guest;
  if (feature === 'merge_requests' || feature === 'container_registry' || feature === 'package_registry' || feature === 'environments') return AccessLevel.Reporter;
  return AccessLevel.Guest;
}

/**
 * May a viewer of the project use the feature (GitLab's feature_available?)? Disabled: nobody,
 * administrators included; private: members of at least the feature's minimum role, and
 * administrators; enabled and public: everyone who can see the project. The server's
 * permission function asks this; the web app asks it only to hide what the server refuses.
 */
export function featureAvailable(level: number, viewer: { isAdmin: boolean; accessLevel: number; visibility: Visibility }, feature: ProjectFeature): boolean {
  if (level === FEATURE_LEVELS.disabled) return false;
  if (level === FEATURE_LEVELS.private) return viewer.isAdmin || viewer.accessLevel >= featureMinimumAccessLevel(feature, viewer.visibility);
  return true;
}
