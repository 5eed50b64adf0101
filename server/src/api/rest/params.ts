import { ValidationError } from '../../platform/errors.js';
import { integerParam } from '../../platform/integer-param.js';

/**
 * GitLab (Grape) accepts parameters from the query string and from JSON,
 * urlencoded or multipart bodies alike, with bracket keys for arrays and
 * hashes (`scopes[]=api`, `position[line_range][start][line_code]=…`,
 * `actions[0][action]=create`). These helpers give every route one merged,
 * nested parameter object.
 */
export type Params = Record<string, unknown>;

/** Parses `a[b][0][c]` into path segments ['a', 'b', '0', 'c']; `a[]` gives ['a', '']. */
export function keyPath(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return [key];
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [match[1]!, ...rest];
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Sets `value` at a bracket key path inside `target`; arrays for `[]` and numeric indexes. */
export function assignPath(target: Params, segments: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (FORBIDDEN_KEYS.has(segment)) return;
    const last = i === segments.length - 1;
    const nextIsIndex = !last && (segments[i + 1] === '' || /^\d+$/.test(segments[i + 1]!));
    if (Array.isArray(node)) {
      const index = segment === '' ? node.length : Number(segment);
      if (!Number.isSafeInteger(index) || index > 10_000) return;
      if (last) node[index] = value;
      else node = (node[index] ??= nextIsIndex ? [] : {}) as Record<string, unknown> | unknown[];
    } else {
      if (last) {
        if (segment === '') return;
        node[segment] = value;
      } else {
        const existing = node[segment];
        node = (existing !== null && typeof existing === 'object' ? existing : (node[segment] = nextIsIndex ? [] : {})) as Record<string, unknown> | unknown[];
      }
    }
  }
}

/** Builds a nested object from flat `key=value` pairs (query strings, forms, multipart fields). */
export function nestPairs(pairs: Iterable<[string, unknown]>): Params {
  const result: Params = Object.create(null);
  for (const [key, value] of pairs) assignPath(result, keyPath(key), value);
  return { ...result };
}

export function parseQueryString(query: string): Params {
  return nestPairs(new URLSearchParams(query).entries());
}

/** Query and body merged; body wins, as in Grape. */
export function mergeParams(query: unknown, body: unknown): Params {
  const q = query && typeof query === 'object' ? (query as Params) : {};
  const b = body && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) ? (body as Params) : {};
  return { ...q, ...b };
}

export function optionalString(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
}

export function requiredString(params: Params, key: string): string {
  const value = optionalString(params, key);
  if (value === undefined || value === '') throw ValidationError.missing(key);
  return value;
}

export function optionalInt(params: Params, key: string): number | undefined {
  const value = params[key];
  if (value === undefined || value === null || value === '') return undefined;
  const number = integerParam(value);
  if (Number.isNaN(number)) throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
  return number;
}

/** Grape's Boolean coercion: true/false, 1/0, "true"/"false"; null means false. */
export function optionalBool(params: Params, key: string): boolean | undefined {
  const value = params[key];
  if (value === undefined) return undefined;
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  const text = String(value).toLowerCase();
  if (['true', '1', 't', 'yes'].includes(text)) return true;
  if (['false', '0', 'f', 'no', ''].includes(text)) return false;
  throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
}

export function optionalStringArray(params: Params, key: string): string[] | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(',').filter(Boolean);
  throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
}

export function oneOf<T extends string>(params: Params, key: string, allowed: readonly T[], fallback: T): T {
  const value = optionalString(params, key);
  if (value === undefined || value === '') return fallback;
  if (!allowed.includes(value as T)) throw new ValidationError(`400 (Bad request) "${key}" does not have a valid value`);
  return value as T;
}
