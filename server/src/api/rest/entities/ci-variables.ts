import type { CiVariable, VariableOwner } from '../../../domains/ci-variables/ci-variable.js';

/**
 * GitLab's Entities::Ci::Variable. A hidden variable's value is null (Ci::VariableValue); instance
 * variables have no `hidden` or `environment_scope` (Ci::InstanceVariable has neither attribute).
 */
export function ciVariableEntity(owner: VariableOwner, variable: CiVariable) {
  if (owner.kind === 'instance') {
    return {
      variable_type: variable.variable_type,
      key: variable.key,
      value: variable.value,
      protected: variable.protected,
      masked: variable.masked,
      raw: variable.raw,
      description: variable.description,
    };
  }
  return {
    variable_type: variable.variable_type,
    key: variable.key,
    value: variable.hidden ? null : variable.value,
    hidden: variable.hidden,
    protected: variable.protected,
    masked: variable.masked,
    raw: variable.raw,
    environment_scope: variable.environment_scope,
    description: variable.description,
  };
}
