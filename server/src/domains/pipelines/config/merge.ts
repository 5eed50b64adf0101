/**
 * Ruby's Hash#deep_merge as GitLab uses it for `include` and `extends`: maps merge key by key,
 * recursively; anything else (arrays, scalars, null) from the right side replaces the left.
 */
import { isPlainObject } from './yaml-loader.js';

export function deepMerge(left: unknown, right: unknown): unknown {
  if (!isPlainObject(left) || !isPlainObject(right)) return right;
  const result: Record<string, unknown> = { ...left };
  for (const [key, value] of Object.entries(right)) {
    result[key] = Object.prototype.hasOwnProperty.call(left, key) ? deepMerge(left[key], value) : value;
  }
  return result;
}

/** Replaces `$VAR` and `${VAR}` with the variables' values; unknown variables stay as written. */
export function expandVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    return Object.prototype.hasOwnProperty.call(variables, name) ? variables[name]! : whole;
  });
}
