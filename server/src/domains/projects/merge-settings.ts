/**
 * The text settings for merging (PUT /projects/:id): commit message templates and the title
 * pattern with its description. Validated here, with GitLab's messages, before anything is
 * written. Pure.
 */
import { ValidationError } from '../../platform/errors.js';
import type { Project } from './project.js';
import { compileTitleRegex, MAX_TITLE_REGEX_LENGTH } from './title-regex.js';

/** GitLab's Project::MAX_COMMIT_TEMPLATE_LENGTH. */
export const MAX_COMMIT_TEMPLATE_LENGTH = 500;

export const MERGE_TEXT_SETTINGS = ['merge_commit_template', 'squash_commit_template', 'merge_request_title_regex', 'merge_request_title_regex_description'] as const;
export type MergeTextSetting = (typeof MERGE_TEXT_SETTINGS)[number];

const LIMITS: Record<MergeTextSetting, number> = {
  merge_commit_template: MAX_COMMIT_TEMPLATE_LENGTH,
  squash_commit_template: MAX_COMMIT_TEMPLATE_LENGTH,
  merge_request_title_regex: MAX_TITLE_REGEX_LENGTH,
  merge_request_title_regex_description: MAX_TITLE_REGEX_LENGTH,
};

/**
 * The columns to write for the settings the request names: an empty value clears a setting
 * (null), a regex must compile in RE2, and the regex and its description are set together
 * or not at all (judged on the values the project ends up with). Throws ValidationError.
 */
export function mergeTextSettings(input: { readonly [setting: string]: unknown }, current: Pick<Project, MergeTextSetting>): Partial<Record<MergeTextSetting, string | null>> {
  const fields: Partial<Record<MergeTextSetting, string | null>> = {};
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const setting of MERGE_TEXT_SETTINGS) {
    const value = input[setting];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') {
      fail(setting, 'is invalid');
      continue;
    }
    const text = value === null || value === '' ? null : value;
    if (text !== null && text.length > LIMITS[setting]) fail(setting, `is too long (maximum is ${LIMITS[setting]} characters)`);
    fields[setting] = text;
  }
  const regex = fields.merge_request_title_regex;
  if (typeof regex === 'string') {
    const compiled = compileTitleRegex(regex);
    if ('error' in compiled) fail('merge_request_title_regex', `not valid RE2 syntax: ${compiled.error}`);
  }
  const finalRegex = fields.merge_request_title_regex !== undefined ? fields.merge_request_title_regex : current.merge_request_title_regex;
  const finalDescription =
    fields.merge_request_title_regex_description !== undefined ? fields.merge_request_title_regex_description : current.merge_request_title_regex_description;
  if ((finalRegex === null) !== (finalDescription === null)) {
    fail('merge_request_title_regex', 'and regex description must be either both set, or neither.');
    fail('merge_request_title_regex_description', 'and regex must be either both set, or neither.');
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return fields;
}
