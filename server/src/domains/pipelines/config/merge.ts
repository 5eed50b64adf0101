/**
 * Ruby's Hash#deep_merge as GitLab uses it for `include` and `extends`: maps merge key by key,
 * recursively; anything else (arrays, scalars, null) from the right side replaces the left.
 */
import { isPlainObject } from './yaml-loader.js';

export function deepMerge(left: unknown, right: unknown): unknown {
  if (!isPlainObject(left) || !isPlainObject(right)) return right;
  const result: Record<string, unknown> = { ...left };
  for (const [key, value] of Object.entries(right)) {
    setOwn(result, key, Object.prototype.hasOwnProperty.call(left, key) ? deepMerge(left[key], value) : value);
  }
  return result;
}

/**
 * Sets a key taken from the configuration as an own data property: a key named `__proto__`
 * stays a key (an assignment would replace the object's prototype instead).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Replaces `$VAR` and `${VAR}` with the variables' values; unknown variables stay as written. */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return Object.prototype.hasOwnProperty.call(variables, name) ? variables[name]! : whole;
  });
}
