/**
 * The parameter types a REST route declares its input with: TypeBox schemas (plain JSON
 * Schema with a static TypeScript type), named after GitLab's Grape types. The JSON Schema
 * keywords say the shape (OpenAPI shows them); `coerce.ts` reads them with Grape's coercions
 * (strings of digits for integers, `true/false/1/0/yes/no` for booleans, `a[]=x`, `a=x,y` or a
 * JSON array for arrays). A few `x-` keywords say what JSON Schema cannot:
 *
 * - `x-not-found`: a path id that is not an id in range names nothing: 404 with this record's name;
 * - `x-ref`: a string naming a record by id or by name: digits past the safe integers are a 404;
 * - `x-date`: a date and time (Grape's DateTime) handed to the route as a `Date`;
 * - `x-blank-absent`: an empty string counts as not sent (GitLab's filters ignore `search=`);
 * - `x-no-comma`: an array that is not split at commas (its items may hold one);
 * - `x-blank-null`: `''` is read as JSON null (a setting that either removes);
 * - `x-allow-blank`: a required string that may be `''` (the domain's validation answers for it);
 *   otherwise a required `''` is Grape's `<param> is empty`.
 */
import { Type, type Static, type TSchema, type TObject, type TProperties, type SchemaOptions } from '@sinclair/typebox';

export { Type, type Static, type TObject, type TProperties, type TSchema };

export const Optional = Type.Optional;

/** A string (a JSON number or boolean is taken as its text, as Grape does). */
export const Str = (options: SchemaOptions & { maxLength?: number } = {}) => Type.String(options);

/** A required string that may be sent blank (the domain says what a blank one means). */
export const BlankableStr = (options: SchemaOptions = {}) => Type.String({ ...options, 'x-allow-blank': true });

/** A string where `''` means "not sent" (filters and optional names). */
export const Text = (options: SchemaOptions = {}) => Type.String({ ...options, 'x-blank-absent': true });

/** An integer: a whole JSON number or a string of digits (not `1e3`, `0x10` or `1.5`), within the safe integers. */
export const Int = (options: SchemaOptions & { minimum?: number; maximum?: number } = {}) => Type.Integer({ ...options, 'x-blank-absent': true });

/** A record id in the body or query: a non-negative integer. */
export const Id = (options: SchemaOptions = {}) => Type.Integer({ minimum: 0, ...options, 'x-blank-absent': true });

/** A record id in the path: digits within range, else 404 naming the record (`404 User Not Found`). */
export const PathId = (record?: string, options: SchemaOptions = {}) => Type.Integer({ minimum: 0, ...options, 'x-not-found': record ?? '' });

/** A record named by its id or by a name (a label's title, a user's username): digits past the safe integers name nothing (404). */
export const Ref = (options: SchemaOptions = {}) => Type.String({ ...options, 'x-ref': true });

/** A project or group in the path: its id or its URL-encoded full path. */
export const NamespacedRef = (options: SchemaOptions = {}) => Ref({ description: 'ID or URL-encoded path', ...options });

/** Grape's Boolean: true/false, 1/0, t/f, yes/no, y/n, on/off (any case); JSON null and '' are false. */
export const Bool = (options: SchemaOptions = {}) => Type.Boolean(options);

/** One of the listed strings, else "does not have a valid value"; '' counts as not sent. */
export const Enum = <const T extends readonly string[]>(values: T, options: SchemaOptions = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options, 'x-blank-absent': true });

/** A date and time (ISO 8601, Grape's DateTime) handed over as a Date; '' counts as not sent. */
export const DateTime = (options: SchemaOptions = {}) => Type.Unsafe<Date>({ type: 'string', format: 'date-time', ...options, 'x-date': true, 'x-blank-absent': true });

/** An array: `a[]=x&a[]=y`, a JSON array (or a JSON array in a string), or `a=x,y` unless `comma: false`. */
export const List = <T extends TSchema>(items: T, options: SchemaOptions & { comma?: boolean; minItems?: number } = {}) => {
  const { comma = true, ...rest } = options;
  return Type.Array(items, comma ? rest : { ...rest, 'x-no-comma': true });
};

/** A hash with any keys: `a[key]=v` or a JSON object. */
export const Hash = <T extends TSchema>(values: T, options: SchemaOptions = {}) => Type.Record(Type.String(), values, options);

/** A hash with named keys: `position[base_sha]=…` or a JSON object. */
export const Obj = <T extends TProperties>(properties: T, options: SchemaOptions = {}) => Type.Object(properties, options);

/** The value, or JSON null (which routes read as "remove"). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A setting that JSON null or `''` removes (GitLab's label priority): the value, or null. */
export const Removable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()], { 'x-blank-null': true });

/** Anything, passed through as sent (for values a domain parser owns, such as a diff position). */
export const Any = (options: SchemaOptions = {}) => Type.Unknown(options);

/** GitLab's offset pagination parameters (`page`, `per_page`), read by `parsePage`. */
export const Pagination = {
  page: Optional(Int({ description: 'page number, from 1' })),
  per_page: Optional(Int({ description: 'items per page, at most 100' })),
};

/** A route's merged input: path, query and body parameters in one object. */
export const Input = <T extends TProperties>(properties: T) => Type.Object(properties);
