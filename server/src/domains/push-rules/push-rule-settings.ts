/**
 * The fields of POST and PUT /projects/:id/push_rule, validated with GitLab's messages before
 * anything is written: each pattern must compile in RE2 (the engine every push is matched
 * with) and fit GitLab's 511 characters; the file size limit is a whole number of MB, 0 or
 * more. Pure.
 */
import { ValidationError } from '../../platform/errors.js';
import { compileUntrustedRegex } from '../projects/title-regex.js';
import { PUSH_RULE_BOOLEAN_FIELDS, PUSH_RULE_FIELDS, PUSH_RULE_REGEX_FIELDS, type PushRuleSettings } from './push-rule.js';

/** GitLab's PushRule regex columns are limited to 511 characters. */
export const MAX_PUSH_RULE_REGEX_LENGTH = 511;

const asBoolean = (value: unknown): boolean | undefined => {
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return undefined;
};

/** The settings the request names (absent ones are left as they are); throws ValidationError. */
export function pushRuleSettings(input: { readonly [field: string]: unknown }, options: { requireOne: boolean }): PushRuleSettings {
  const fields: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const field of PUSH_RULE_REGEX_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') throw new ValidationError(`${field} is invalid`);
    const text = value === null || value === '' ? null : value;
    if (text !== null) {
      if (text.length > MAX_PUSH_RULE_REGEX_LENGTH) fail(field, `is too long (maximum is ${MAX_PUSH_RULE_REGEX_LENGTH} characters)`);
      const compiled = compileUntrustedRegex(text);
      if ('error' in compiled) fail(field, `not valid RE2 syntax: ${compiled.error}`);
    }
    fields[field] = text;
  }
  for (const field of PUSH_RULE_BOOLEAN_FIELDS) {
    if (input[field] === undefined || input[field] === null) continue;
    const value = asBoolean(input[field]);
    if (value === undefined) throw new ValidationError(`${field} is invalid`);
    fields[field] = value;
  }
  if (input.max_file_size !== undefined && input.max_file_size !== null) {
    const size = Number(input.max_file_size);
    if (input.max_file_size === '' || !Number.isInteger(size)) throw new ValidationError('max_file_size is invalid');
    if (size < 0) fail('max_file_size', 'must be greater than or equal to 0');
    else if (size > 2_147_483_647) fail('max_file_size', 'must be less than or equal to 2147483647');
    fields.max_file_size = size;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  if (options.requireOne && Object.keys(fields).length === 0) {
    throw new ValidationError(`${[...PUSH_RULE_FIELDS].sort().join(', ')} are missing, at least one parameter must be provided`);
  }
  return fields as PushRuleSettings;
}
