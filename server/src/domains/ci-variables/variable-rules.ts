import {
  CI_ENVIRONMENT_SCOPE_MESSAGE,
  CI_ENVIRONMENT_SCOPE_PATTERN,
  CI_VARIABLE_KEY_MAX_LENGTH,
  CI_VARIABLE_KEY_MESSAGE,
  CI_VARIABLE_KEY_PATTERN,
  isMaskableValue,
} from '@tributary/contracts';
import type { CiVariable, VariableAttributes, VariableOwner } from './ci-variable.js';

/**
 * GitLab's validations of a CI/CD variable (Ci::HasVariable, Ci::Maskable, Ci::HidableVariable,
 * HasEnvironmentScope, Ci::InstanceVariable), messages word for word. The patterns live in
 * @tributary/contracts so that the settings form checks the same rules before sending.
 */
export const DESCRIPTION_MAX_LENGTH = 255;
/** Ci::InstanceVariable's value limit. */
export const INSTANCE_VALUE_MAX_LENGTH = 10_000;

export type FieldErrors = Record<string, string[]>;
export type VariableFields = Omit<CiVariable, 'id' | 'project_id' | 'group_id'>;

function add(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/**
 * The errors of a variable as it would be after a create (`previous` undefined) or an update,
 * in GitLab's `{"message": {field: [errors]}}` shape (every failed rule of a field, in Rails'
 * order); null when valid. Uniqueness is the database's (a unique index), see `takenMessage`.
 */
export function variableErrors(owner: VariableOwner, next: VariableFields, previous?: CiVariable): FieldErrors | null {
  const errors: FieldErrors = {};
  if (next.key === '') add(errors, 'key', "can't be blank");
  if (next.key.length > CI_VARIABLE_KEY_MAX_LENGTH) add(errors, 'key', `is too long (maximum is ${CI_VARIABLE_KEY_MAX_LENGTH} characters)`);
  if (!CI_VARIABLE_KEY_PATTERN.test(next.key)) add(errors, 'key', CI_VARIABLE_KEY_MESSAGE);
  if (owner.kind !== 'instance') {
    if (next.environment_scope === '') add(errors, 'environment_scope', "can't be blank");
    if (!CI_ENVIRONMENT_SCOPE_PATTERN.test(next.environment_scope)) add(errors, 'environment_scope', CI_ENVIRONMENT_SCOPE_MESSAGE);
  }
  // Rails' format validation answers "is invalid" for a value that may not be masked.
  if (next.masked && !isMaskableValue(next.value, next.raw)) add(errors, 'value', 'is invalid');
  if (owner.kind === 'instance' && next.value.length > INSTANCE_VALUE_MAX_LENGTH) {
    add(errors, 'value', `The value of the provided variable exceeds the ${INSTANCE_VALUE_MAX_LENGTH} character limit`);
  }
  if (next.description !== null && next.description.length > DESCRIPTION_MAX_LENGTH) {
    add(errors, 'description', `is too long (maximum is ${DESCRIPTION_MAX_LENGTH} characters)`);
  }
  // Hidden is chosen once, at creation, and only together with masked (Ci::HidableVariable).
  if (!previous) {
    if (next.hidden && !next.masked) add(errors, 'masked', 'should be true when variable is hidden');
  } else if (next.hidden !== previous.hidden) {
    add(errors, 'base', 'Only new variables can be set as masked and hidden.');
  } else if (previous.hidden && next.masked !== previous.masked) {
    add(errors, 'base', 'The visibility setting cannot be changed for masked and hidden variables.');
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** GitLab strips the key and the environment scope before validating them. */
export function normalizeAttributes(input: VariableAttributes): VariableAttributes {
  const out = { ...input };
  if (out.key !== undefined) out.key = out.key.trim();
  if (out.environment_scope !== undefined) out.environment_scope = out.environment_scope.trim();
  return out;
}

/** GitLab's message for a key (and scope) already used by the same project, group or instance. */
export const takenMessage = (key: string) => `(${key}) has already been taken`;
