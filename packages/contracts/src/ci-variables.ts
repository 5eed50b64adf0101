/**
 * The CI/CD variable rules the server enforces and the settings form explains before sending
 * (GitLab's Ci::HasVariable, Ci::Maskable and HasEnvironmentScope patterns).
 */
export const CI_VARIABLE_KEY_PATTERN = /^[a-zA-Z0-9_]+$/;
export const CI_VARIABLE_KEY_MAX_LENGTH = 255;
/**
 * A masked value that is expanded: single line, no spaces, at least 8 characters, only the Base64
 * alphabet (RFC4648) plus `@`, `:`, `.`, `~` (and `-`, `_`, `+`, `=`, `/` of Base64 and Base64url).
 */
export const CI_VARIABLE_MASKABLE_PATTERN = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** A masked value that is raw (not expanded): single line, no spaces, at least 8 characters. */
export const CI_VARIABLE_MASKABLE_RAW_PATTERN = /^\S{8,}$/;
/** Letters, digits, `-`, `_`, `/`, `$`, `{`, `}`, `.`, `*` and spaces. */
export const CI_ENVIRONMENT_SCOPE_PATTERN = /^[a-zA-Z0-9_/${}. *-]+$/;

export const CI_VARIABLE_KEY_MESSAGE = "can contain only letters, digits and '_'.";
export const CI_ENVIRONMENT_SCOPE_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces";

/** Does `value` qualify for masking? Raw values may hold any non-space characters. */
export function isMaskableValue(value: string, raw: boolean): boolean {
  return (raw ? CI_VARIABLE_MASKABLE_RAW_PATTERN : CI_VARIABLE_MASKABLE_PATTERN).test(value);
}

/** Which masking rule a value breaks, as a sentence for the form; null when it may be masked. */
export function maskedValueProblem(value: string, raw: boolean): string | null {
  if (value.length < 8) return 'The value must have at least 8 characters.';
  if (/\s/.test(value)) return 'The value must be a single line without spaces.';
  if (!raw && !CI_VARIABLE_MASKABLE_PATTERN.test(value)) {
    return "The value must contain only characters of the Base64 alphabet (RFC4648) and '@', ':', '.', '~', '-'.";
  }
  return null;
}

/** A key's problem as GitLab words it after "Key " (empty, too long, bad characters); null when valid. */
export function variableKeyProblem(key: string): string | null {
  if (key === '') return "can't be blank";
  if (key.length > CI_VARIABLE_KEY_MAX_LENGTH) return `is too long (maximum is ${CI_VARIABLE_KEY_MAX_LENGTH} characters)`;
  if (!CI_VARIABLE_KEY_PATTERN.test(key)) return CI_VARIABLE_KEY_MESSAGE;
  return null;
}
