/**
 * `extends` and `!reference`, after includes are merged, as GitLab's Extendable and
 * Yaml::Tags::Resolver: each top-level entry with `extends` (a name or a list) is the deep merge of
 * its bases in order, then its own keys; a chain may have at most MAX_EXTENDS_DEPTH ancestors.
 * Then every `!reference [key, subkey, …]` is replaced by the value it names (itself resolved).
 * Both steps refuse loops with GitLab's messages instead of recursing for ever.
 */
import { MAX_EXTENDS_DEPTH, MAX_REFERENCE_DEPTH, MAX_RESOLVED_NODES } from './limits.js';
import { deepMerge, setOwn } from './merge.js';
import { isPlainObject, YAML_TOO_BIG, YamlReference } from './yaml-loader.js';

export class ExtendsError extends Error {}

export function resolveExtends(config: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...config };
  const done = new Set<string>();
  const extend = (key: string, ancestors: string[]): Record<string, unknown> => {
    const value = result[key] as Record<string, unknown>;
    if (done.has(key) || !isPlainObject(value) || value.extends === undefined) return value;
    const bases = ([] as unknown[]).concat(value.extends).map(String);
    const unknown = bases.filter((base) => !Object.prototype.hasOwnProperty.call(result, base));
    if (unknown.length > 0) throw new ExtendsError(`${key}: unknown keys in \`extends\` (${unknown.join(', ')})`);
    const invalid = bases.filter((base) => !isPlainObject(result[base]));
    if (invalid.length > 0) throw new ExtendsError(`${key}: invalid base hashes in \`extends\` (${invalid.join(', ')})`);
    if (ancestors.length > MAX_EXTENDS_DEPTH) throw new ExtendsError(`${key}: nesting too deep in \`extends\``);
    if (ancestors.includes(key)) throw new ExtendsError(`${key}: circular dependency detected in \`extends\``);
    let merged: unknown = {};
    for (const base of bases) merged = deepMerge(merged, extend(base, [...ancestors, key]));
    setOwn(result, key, deepMerge(merged, value));
    done.add(key);
    return result[key] as Record<string, unknown>;
  };
  for (const key of Object.keys(result)) extend(key, []);
  return resolveReferences(result);
}

/**
 * Replaces every `!reference` with the value at its path in the configuration. References can
 * multiply (ten references to a key holding ten references …), so the nodes produced are
 * counted and a configuration that grows past MAX_RESOLVED_NODES is refused as too big.
 */
export function resolveReferences(config: Record<string, unknown>): Record<string, unknown> {
  let produced = 0;
  const resolve = (value: unknown, depth: number): unknown => {
    if (++produced > MAX_RESOLVED_NODES) throw new ExtendsError(YAML_TOO_BIG);
    if (value instanceof YamlReference) {
      const shown = `!reference [${value.path.map((part) => JSON.stringify(part)).join(', ')}]`;
      if (depth > MAX_REFERENCE_DEPTH) throw new ExtendsError(`${shown} is part of a circular chain`);
      if (value.path.length === 0 || !value.path.every((part) => typeof part === 'string')) {
        throw new ExtendsError(`${shown} is not valid`);
      }
      let target: unknown = config;
      for (const part of value.path as string[]) {
        target = isPlainObject(target) && Object.prototype.hasOwnProperty.call(target, part) ? target[part] : undefined;
      }
      if (target === undefined || target === null) throw new ExtendsError(`${shown} could not be found`);
      return resolve(target, depth + 1);
    }
    // A referenced list stays nested; script entries flatten nested lists, as GitLab's.
    if (Array.isArray(value)) return value.map((item) => resolve(item, depth));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) setOwn(out, key, resolve(item, depth));
      return out;
    }
    return value;
  };
  return resolve(config, 0) as Record<string, unknown>;
}
