/**
 * The project feature settings of POST and PUT /projects/:id (GitLab's `*_access_level` fields,
 * the legacy `*_enabled` booleans and `public_jobs`): parsed and validated with GitLab's
 * messages before anything is written. Pure.
 */
import {
  FEATURE_LEVEL_NAMES,
  FEATURE_LEVELS,
  featureField,
  LEGACY_FEATURE_BOOLEANS,
  PROJECT_FEATURES,
  PUBLIC_LEVEL_FEATURES,
  REPOSITORY_CHILDREN,
  type FeatureField,
  type FeatureLevelName,
  type LegacyFeatureBoolean,
} from '@tributary/contracts';
import { ValidationError } from '../../platform/errors.js';
import type { ProjectFeatureLevels } from './project.js';

export const FEATURE_MESSAGES = {
  publicLevel: 'cannot have public visibility level',
  aboveRepository: 'cannot have higher visibility level than repository access level',
} as const;

export type FeatureSettings = Partial<ProjectFeatureLevels> & { public_builds?: boolean };

/** What a create starts from: GitLab's defaults (pages 'enabled' on a public project, else 'private'). */
export function defaultFeatureLevels(visibility: string): ProjectFeatureLevels {
  const levels = Object.fromEntries(PROJECT_FEATURES.map((feature) => [featureField(feature), FEATURE_LEVELS.enabled])) as ProjectFeatureLevels;
  levels.pages_access_level = visibility === 'public' ? FEATURE_LEVELS.enabled : FEATURE_LEVELS.private;
  levels.container_registry_access_level = FEATURE_LEVELS.disabled;
  levels.package_registry_access_level = FEATURE_LEVELS.disabled;
  levels.security_and_compliance_access_level = FEATURE_LEVELS.private;
  return levels;
}

const asBoolean = (value: unknown): boolean | undefined => {
  if (value === true || value === 'true' || value === '1' || value === 1) return true;
  if (value === false || value === 'false' || value === '0' || value === 0) return false;
  return undefined;
};

/**
 * The feature columns to write for the fields the request names. A level is one of GitLab's
 * words; a legacy boolean means 'enabled' or 'disabled' (an explicit level wins over it). The
 * levels the project ends up with are then judged as GitLab's ProjectFeature does: only pages
 * and the package registry take 'public', and merge requests and CI may not be more open than
 * the repository. Throws ValidationError (400) with GitLab's field names and messages.
 */
export function featureSettings(input: { readonly [field: string]: unknown }, current: ProjectFeatureLevels): FeatureSettings {
  const fields: FeatureSettings = {};
  for (const [legacy, feature] of Object.entries(LEGACY_FEATURE_BOOLEANS) as [LegacyFeatureBoolean, (typeof LEGACY_FEATURE_BOOLEANS)[LegacyFeatureBoolean]][]) {
    if (input[legacy] === undefined || input[legacy] === null) continue;
    const value = asBoolean(input[legacy]);
    if (value === undefined) throw new ValidationError(`${legacy} is invalid`);
    fields[featureField(feature)] = value ? FEATURE_LEVELS.enabled : FEATURE_LEVELS.disabled;
  }
  for (const feature of PROJECT_FEATURES) {
    const field = featureField(feature);
    const value = input[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || !FEATURE_LEVEL_NAMES.includes(value as FeatureLevelName)) throw new ValidationError(`${field} does not have a valid value`);
    fields[field] = FEATURE_LEVELS[value as FeatureLevelName];
  }
  for (const name of ['public_jobs', 'public_builds']) {
    if (input[name] === undefined || input[name] === null) continue;
    const value = asBoolean(input[name]);
    if (value === undefined) throw new ValidationError(`${name} is invalid`);
    fields.public_builds = value;
  }
  const errors: Record<string, string[]> = {};
  const final = (field: FeatureField) => fields[field] ?? current[field];
  for (const feature of PROJECT_FEATURES) {
    const field = featureField(feature);
    if (fields[field] === undefined) continue;
    if (final(field) > FEATURE_LEVELS.enabled && !PUBLIC_LEVEL_FEATURES.includes(feature)) (errors[`project_feature.${field}`] ??= []).push(FEATURE_MESSAGES.publicLevel);
  }
  for (const feature of REPOSITORY_CHILDREN) {
    const field = featureField(feature);
    if (final(field) > final('repository_access_level')) (errors[`project_feature.${field}`] ??= []).push(FEATURE_MESSAGES.aboveRepository);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return fields;
}
