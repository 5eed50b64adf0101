/**
 * Reads a route's merged parameters against its declared schema (types.ts) with GitLab's
 * (Grape's) coercions, and answers what Grape answers for bad input: one 400 whose `error`
 * lists every problem, `title is missing, iid is invalid, state does not have a valid value`.
 * Parameters the schema does not declare are dropped, so a route reads only what it declared.
 * Pure.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { NotFoundError } from '../../../platform/errors.js';
import { integerParam } from '../../../platform/integer-param.js';

/** Grape's validation failure: 400 with `{"error": "<param> is missing, …"}`. */
export class ParamsError extends Error {
  readonly status = 400;
  constructor(readonly problems: readonly string[]) {
    super(problems.join(', '));
    this.name = 'ParamsError';
  }
}

type Schema = TSchema & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  pattern?: string;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
  'x-not-found'?: string;
  'x-date'?: boolean;
  'x-ref'?: boolean;
  'x-blank-absent'?: boolean;
  'x-no-comma'?: boolean;
  'x-allow-blank'?: boolean;
  'x-blank-null'?: boolean;
};

/** Grape's Boolean (dry-types' Params::Bool), any case; '' is false as JSON null is. */
const TRUE = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE = new Set(['false', '0', 'f', 'no', 'n', 'off', '']);
/** Arrays longer than this are refused (a query string holds at most 1000 parameters anyway). */
const MAX_ITEMS = 10_000;

/** Not a value: the parameter counts as not sent. */
const ABSENT = Symbol('absent');

class Problems {
  readonly list: string[] = [];
  missing(name: string) {
    this.list.push(`${name} is missing`);
  }
  invalid(name: string) {
    this.list.push(`${name} is invalid`);
  }
  notAllowed(name: string) {
    this.list.push(`${name} does not have a valid value`);
  }
}

const isHash = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);

function allowsNull(schema: Schema): boolean {
  return schema.type === 'null' || (schema.anyOf?.some(allowsNull) ?? false);
}

function isBlankAbsent(schema: Schema): boolean {
  return schema['x-blank-absent'] === true || (schema.anyOf?.some(isBlankAbsent) ?? false);
}

/** Path, query and body parameters merged as Grape merges them: the body over the query, the path over both. */
export function mergeInput(path: unknown, query: unknown, body: unknown): Record<string, unknown> {
  const hash = (value: unknown) => (isHash(value) ? value : {});
  return { ...hash(query), ...hash(body), ...hash(path) };
}

/** The declared input, coerced; throws ParamsError (400) or, for a path id out of range, NotFoundError (404). */
export function coerceInput<T>(schema: TObject, raw: Record<string, unknown>): T {
  const problems = new Problems();
  const value = coerceObject(schema as Schema, raw, '', problems);
  if (problems.list.length > 0) throw new ParamsError(problems.list);
  return value as T;
}

function coerceObject(schema: Schema, raw: Record<string, unknown>, prefix: string, problems: Problems): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const name = prefix ? `${prefix}[${key}]` : key;
    const sent = Object.hasOwn(raw, key) ? raw[key] : undefined;
    const value = sent === undefined ? ABSENT : coerce(property, sent, name, problems);
    if (value === '' && required.has(key) && !property['x-allow-blank']) problems.list.push(`${name} is empty`);
    else if (value !== ABSENT) result[key] = value;
    else if (property.default !== undefined) result[key] = structuredClone(property.default);
    else if (required.has(key)) problems.missing(name);
  }
  const values = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : Object.values(schema.patternProperties ?? {})[0];
  if (values) {
    for (const [key, sent] of Object.entries(raw)) {
      if (schema.properties && Object.hasOwn(schema.properties, key)) continue;
      const value = coerce(values, sent, prefix ? `${prefix}[${key}]` : key, problems);
      if (value !== ABSENT) result[key] = value;
    }
  }
  return result;
}

function coerce(schema: Schema, value: unknown, name: string, problems: Problems): unknown {
  if (value === '' && schema['x-blank-null']) return null;
  if (value === null) {
    if (allowsNull(schema)) return null;
    return schema.type === 'boolean' ? false : ABSENT;
  }
  if (value === '' && schema.type !== 'string' && schema.type !== 'boolean' && schema.type !== 'array' && isBlankAbsent(schema)) return ABSENT;
  if (value === '' && schema.type === 'string' && schema['x-blank-absent']) return ABSENT;
  if (schema.anyOf) return coerceUnion(schema.anyOf, value, name, problems);
  switch (schema.type) {
    case 'string':
      return coerceString(schema, value, name, problems);
    case 'integer':
      return coerceInteger(schema, value, name, problems);
    case 'boolean':
      return coerceBoolean(value, name, problems);
    case 'array':
      return coerceArray(schema, value, name, problems);
    case 'object':
      if (!isHash(value)) {
        problems.invalid(name);
        return ABSENT;
      }
      return coerceObject(schema, value, name, problems);
    case 'null':
      problems.invalid(name);
      return ABSENT;
    default:
      return value;
  }
}

function coerceUnion(branches: Schema[], value: unknown, name: string, problems: Problems): unknown {
  let first: Problems | undefined;
  for (const branch of branches) {
    if (branch.type === 'null') continue;
    const attempt = new Problems();
    const result = coerce(branch, value, name, attempt);
    if (attempt.list.length === 0) return result;
    first ??= attempt;
  }
  problems.list.push(...(first?.list ?? [`${name} is invalid`]));
  return ABSENT;
}

function coerceString(schema: Schema, value: unknown, name: string, problems: Problems): unknown {
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    problems.invalid(name);
    return ABSENT;
  }
  const text = String(value);
  // An id no record can have (past the safe integers, which the database's bigint ids also are): nothing by that id exists.
  if (schema['x-ref'] && /^\d+$/.test(text) && !Number.isSafeInteger(Number(text))) throw new NotFoundError();
  if (schema.enum && !schema.enum.includes(text)) {
    problems.notAllowed(name);
    return ABSENT;
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(text)) {
    problems.invalid(name);
    return ABSENT;
  }
  if (schema['x-date']) {
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) {
      problems.invalid(name);
      return ABSENT;
    }
    return date;
  }
  return text;
}

function coerceInteger(schema: Schema, value: unknown, name: string, problems: Problems): unknown {
  const notFound = schema['x-not-found'];
  if (notFound !== undefined) {
    // A path id: digits within range, or nothing by that id exists.
    const number = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
    const outOfRange = (schema.minimum !== undefined && number < schema.minimum) || (schema.maximum !== undefined && number > schema.maximum);
    if (!Number.isSafeInteger(number) || outOfRange) throw new NotFoundError(notFound || undefined);
    return number;
  }
  const number = integerParam(value);
  if (Number.isNaN(number)) {
    problems.invalid(name);
    return ABSENT;
  }
  if ((schema.minimum !== undefined && number < schema.minimum) || (schema.maximum !== undefined && number > schema.maximum)) {
    problems.notAllowed(name);
    return ABSENT;
  }
  return number;
}

function coerceBoolean(value: unknown, name: string, problems: Problems): unknown {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : undefined;
  if (text !== undefined && TRUE.has(text)) return true;
  if (text !== undefined && FALSE.has(text)) return false;
  problems.invalid(name);
  return ABSENT;
}

/** The items as sent: an array, a hash of indexes (`a[0]=…&a[1]=…` past qs's array limit), a JSON array, a comma list or one value. */
function itemsOf(schema: Schema, value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isHash(value)) {
    const keys = Object.keys(value);
    if (!keys.every((key) => /^\d+$/.test(key))) return undefined;
    return keys.sort((a, b) => Number(a) - Number(b)).map((key) => value[key]);
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[') && text.endsWith(']')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // not JSON: an ordinary value
      }
    }
    if (schema['x-no-comma']) return value === '' ? [] : [value];
    return value.split(',').filter((item) => item !== '');
  }
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  return undefined;
}

function coerceArray(schema: Schema, value: unknown, name: string, problems: Problems): unknown {
  const items = itemsOf(schema, value);
  if (!items || items.length > MAX_ITEMS) {
    problems.invalid(name);
    return ABSENT;
  }
  const itemSchema = schema.items ?? ({} as Schema);
  const result: unknown[] = [];
  const before = problems.list.length;
  for (const item of items) {
    const coerced = coerce(itemSchema, item, name, problems);
    if (problems.list.length > before) {
      // one message for the array, however many items are wrong
      problems.list.length = before;
      problems.invalid(name);
      return ABSENT;
    }
    if (coerced !== ABSENT) result.push(coerced);
  }
  if (schema.minItems !== undefined && result.length < schema.minItems) {
    problems.list.push(`${name} is empty`);
    return ABSENT;
  }
  return result;
}
