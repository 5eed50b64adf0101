import qs from 'qs';

/**
 * GitLab's (Rack's) bracket parameters, for query strings, urlencoded bodies and multipart
 * fields alike: `scopes[]=api` is an array, `position[line_range][start][line_code]=…` and
 * `filter[environment_scope]=*` are hashes, `actions[0][action]=create` an array of hashes,
 * and a key sent twice keeps its last value. Parsed by `qs`, configured so that no input can
 * reach an object's prototype (`__proto__`, `constructor` and `prototype` keys are dropped;
 * objects have no prototype) or grow without bound (nesting, array indexes and the number of
 * parameters are limited; an index past the limit makes a hash, as Rack would refuse it).
 */
const OPTIONS: qs.IParseOptions & { duplicates: 'last' } = {
  depth: 8,
  arrayLimit: 100,
  parameterLimit: 1000,
  allowPrototypes: false,
  plainObjects: true,
  allowDots: false,
  comma: false,
  duplicates: 'last',
  ignoreQueryPrefix: true,
};

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A nested parameter object: strings, arrays and hashes (multipart values may be files). */
export type ParsedParams = Record<string, unknown>;

function withoutForbiddenKeys(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 16) return value;
  if (Array.isArray(value)) return value.map((item) => withoutForbiddenKeys(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== null && proto !== Object.prototype) return value;
  const clean: ParsedParams = Object.create(null);
  for (const [key, item] of Object.entries(value)) if (!FORBIDDEN_KEYS.has(key)) clean[key] = withoutForbiddenKeys(item, depth + 1);
  return clean;
}

/** A query string or urlencoded body into nested parameters. */
export function parseQueryString(query: string): ParsedParams {
  return withoutForbiddenKeys(qs.parse(query, OPTIONS)) as ParsedParams;
}

/** Flat fields (multipart's `position[base_sha]`) nested like a query string; values are kept as they are. */
export function nestFields(fields: Record<string, unknown>): ParsedParams {
  return withoutForbiddenKeys(qs.parse(fields as Record<string, string>, OPTIONS)) as ParsedParams;
}
