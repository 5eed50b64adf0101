/**
 * Loads a configuration file's YAML into plain data, as GitLab's Gitlab::Config::Loader::Yaml:
 * YAML 1.1 (Psych's reading of `yes`/`on`, merge keys `<<`), the `!reference [job, key]` tag kept
 * as a marker for the extends step to resolve, and nothing that constructs objects or runs code
 * (the `yaml` package builds plain maps, sequences and scalars only; unknown tags are strings).
 *
 * Untrusted text cannot exhaust the server: the raw text is refused above MAX_YAML_SIZE_BYTES
 * before parsing, aliases are capped (`maxAliasCount`, the billion-laughs defence), and the
 * parsed data is measured (size and depth) before anything else walks it. A recursive alias
 * (`&a [*a]`) shows up as a cycle and is refused as too big, as GitLab does.
 */
import { parseAllDocuments, YAMLSeq, type CollectionTag, type ScalarTag } from 'yaml';

import { MAX_YAML_ALIAS_COUNT, MAX_YAML_DEPTH, MAX_YAML_SIZE_BYTES } from './limits.js';

/** The value of a `!reference [a, b, c]` tag, before resolution. */
export class YamlReference {
  constructor(readonly path: unknown[]) {}
}

class ReferenceSeq extends YAMLSeq {
  static readonly tag = '!reference';
  override toJSON(_?: unknown, ctx?: Parameters<YAMLSeq['toJSON']>[1]): never {
    // The marker travels through toJS in place of the array; its type is only known to this file.
    return new YamlReference(super.toJSON(_, ctx) as unknown[]) as never;
  }
}

const referenceTag: CollectionTag = {
  tag: '!reference',
  collection: 'seq',
  nodeClass: ReferenceSeq as unknown as CollectionTag['nodeClass'],
  resolve(seq) {
    const node = new ReferenceSeq();
    node.items = (seq as YAMLSeq).items;
    return node;
  },
};

/**
 * Psych (YAML 1.1 as Ruby reads it) takes yes/no/on/off as booleans but, unlike the YAML 1.1
 * schema, not y/n: added to the core schema so `[x, y]` stays two strings.
 */
const psychBoolTag: ScalarTag = {
  identify: (value) => typeof value === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF)$/,
  resolve: (text) => /^(?:[Yy]es|YES|[Oo]n|ON)$/.test(text),
};

export type YamlLoadResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export const YAML_TOO_BIG = 'The parsed YAML is too big';
export const YAML_PROVIDED_TOO_BIG = 'The provided YAML is too big';
export const INVALID_FORMAT = 'Invalid configuration format';

/** Parses one configuration file; the document must be a mapping. */
export function loadYaml(text: string, maxBytes = MAX_YAML_SIZE_BYTES): YamlLoadResult {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) return { ok: false, error: YAML_PROVIDED_TOO_BIG };
  let documents;
  try {
    documents = parseAllDocuments(text, {
      schema: 'core',
      merge: true,
      customTags: [referenceTag, psychBoolTag],
      uniqueKeys: false,
      prettyErrors: false,
    });
  } catch (error) {
    return { ok: false, error: describeYamlError(error) };
  }
  const list = Array.isArray(documents) ? documents : [documents];
  // A header document (`spec: inputs`) followed by `---` and the configuration, as GitLab's.
  let index = 0;
  if (list.length > 2) return { ok: false, error: 'The parsed YAML has too many documents' };
  for (const document of list) {
    if (document.errors.length > 0) return { ok: false, error: describeYamlError(document.errors[0], text) };
  }
  let value: unknown;
  try {
    const first = list[0]?.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
    if (list.length === 2 && isPlainObject(first) && 'spec' in first) index = 1;
    value = index === 0 ? first : list[1]!.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) return { ok: false, error: YAML_TOO_BIG };
    return { ok: false, error: describeYamlError(error) };
  }
  if (!withinDeepSize(value, maxBytes, MAX_YAML_DEPTH)) return { ok: false, error: YAML_TOO_BIG };
  if (!isPlainObject(value)) return { ok: false, error: INVALID_FORMAT };
  return { ok: true, value };
}

/** Psych's message shape: `(<unknown>): <problem> at line L column C`. */
function describeYamlError(error: unknown, text = ''): string {
  if (error && typeof error === 'object' && 'pos' in error && 'message' in error) {
    const withPos = error as { message: string; pos: [number, number] };
    const problem = String(withPos.message).split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    const before = text.slice(0, withPos.pos[0]);
    const line = before.split('\n').length;
    const column = withPos.pos[0] - before.lastIndexOf('\n');
    return `(<unknown>): ${problem} at line ${line} column ${column}`;
  }
  return `(<unknown>): ${error instanceof Error ? error.message : String(error)}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof YamlReference);
}

/**
 * GitLab's Gitlab::Utils::DeepSize: an estimate of the memory the data takes, with a depth cap.
 * Stops as soon as a limit is passed, so a cycle or a huge expansion costs little to refuse.
 */
export function withinDeepSize(root: unknown, maxSize: number, maxDepth: number): boolean {
  let size = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (depth > maxDepth) return false;
    size += 40;
    if (typeof value === 'string') size += value.length;
    else if (Array.isArray(value)) for (const item of value) stack.push({ value: item, depth: depth + 1 });
    else if (value instanceof YamlReference) for (const item of value.path) stack.push({ value: item, depth: depth + 1 });
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        size += key.length;
        stack.push({ value: item, depth: depth + 1 });
      }
    }
    if (size > maxSize) return false;
  }
  return true;
}
