/**
 * GitLab's JUnit parser (Gitlab::Ci::Parsers::Test::Junit) on a streaming XML parser (saxes):
 * every `<testcase>` directly inside a `<testsuite>` (nested to any depth, as PHPUnit writes) or
 * inside the top-level `<testsuites>` becomes a case. `<failure>` makes it failed, `<error>` error,
 * `<skipped>` skipped, otherwise success. A failed or errored case's output is the failure's text,
 * then "System Out:\n\n…" and "System Err:\n\n…"; a skipped case's is the skip's text; an
 * attachment is `[[ATTACHMENT|path]]` in its system-out.
 *
 * Safety: saxes never reads a DTD, so no entity is ever expanded (no XXE, no "billion laughs"),
 * and a document with a `<!DOCTYPE` is refused outright; input is fed in slices and the number of
 * cases is bounded.
 */
import { SaxesParser } from 'saxes';

export type TestCaseStatus = 'success' | 'failed' | 'skipped' | 'error';

export interface ParsedTestCase {
  /** the `name` of the `<testsuite>` it was in */
  suiteName: string | null;
  name: string;
  classname: string;
  file: string | null;
  executionTime: number;
  status: TestCaseStatus;
  systemOutput: string | null;
  attachment: string | null;
}

/** Cases one job's reports may hold (GitLab's max_test_cases_per_report, here always on). */
export const MAX_TEST_CASES = 100_000;
/** Slices the XML is fed to the parser in. */
const SLICE = 64 * 1024;

const ATTACHMENT = /\[\[ATTACHMENT\|([^[\]|]+?)\]\]/;
const OUTCOMES = ['failure', 'error', 'skipped', 'system-out', 'system-err'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** `xml`: the document is not XML we accept; `data`: it is, but its content breaks a rule (too many cases). */
export class JunitParseError extends Error {
  constructor(
    message: string,
    readonly kind: 'xml' | 'data' = 'xml',
  ) {
    super(message);
  }
}

interface OpenCase {
  attributes: Record<string, string>;
  suiteName: string | null;
  parts: Partial<Record<Outcome, string | null>>;
}

/** Execution time in seconds: a number, anything else 0 (Ruby's String#to_f). */
export function executionTime(value: string | undefined): number {
  const match = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(value ?? '');
  return match ? Number(match[0]) : 0;
}

function toCase(open: OpenCase): ParsedTestCase {
  const { parts, attributes } = open;
  const systemOut = parts['system-out'] !== undefined ? `System Out:\n\n${parts['system-out'] ?? ''}` : null;
  const systemErr = parts['system-err'] !== undefined ? `System Err:\n\n${parts['system-err'] ?? ''}` : null;
  let status: TestCaseStatus = 'success';
  let systemOutput: string | null = null;
  let attachment: string | null = null;
  const failure = 'failure' in parts ? 'failure' : 'error' in parts ? 'error' : null;
  if (failure) {
    status = failure === 'failure' ? 'failed' : 'error';
    systemOutput = [parts[failure], systemOut, systemErr].filter((part): part is string => part !== null && part !== undefined).join('\n\n');
    attachment = ATTACHMENT.exec(parts['system-out'] ?? '')?.[1] ?? null;
  } else if ('skipped' in parts) {
    status = 'skipped';
    systemOutput = parts.skipped ?? null;
  }
  return {
    suiteName: open.suiteName,
    name: attributes.name ?? '',
    classname: attributes.classname ?? '',
    file: attributes.file ?? null,
    executionTime: executionTime(attributes.time),
    status,
    systemOutput,
    attachment,
  };
}

/**
 * The cases of one JUnit XML document. Throws JunitParseError with the parser's message for
 * malformed XML or a DOCTYPE, and when there are more than `maxCases` cases.
 */
export function parseJunit(xml: Buffer | string, options: { maxCases?: number } = {}): ParsedTestCase[] {
  const maxCases = options.maxCases ?? MAX_TEST_CASES;
  const parser = new SaxesParser({ position: true });
  const cases: ParsedTestCase[] = [];
  const stack: string[] = [];
  const suites: (string | null)[] = [];
  let current: OpenCase | null = null;
  /** the outcome element whose text is being read, and its pieces */
  let capturing: { outcome: Outcome; pieces: string[]; message: string | null } | null = null;

  parser.on('doctype', () => {
    throw new JunitParseError('DOCTYPE is not allowed');
  });
  parser.on('opentag', (tag) => {
    const parent = stack[stack.length - 1];
    const attributes = tag.attributes as Record<string, string>;
    stack.push(tag.name);
    if (tag.name === 'testsuite') suites.push(attributes.name ?? null);
    if (tag.name === 'testcase' && !current && (parent === 'testsuite' || (parent === 'testsuites' && stack.length === 2))) {
      current = { attributes, suiteName: suites[suites.length - 1] ?? null, parts: {} };
      return;
    }
    if (current && parent === 'testcase' && (OUTCOMES as readonly string[]).includes(tag.name)) {
      capturing = { outcome: tag.name as Outcome, pieces: [], message: attributes.message ?? null };
    }
  });
  const onText = (text: string) => {
    if (capturing) capturing.pieces.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    stack.pop();
    if (tag.name === 'testsuite') suites.pop();
    if (capturing && tag.name === capturing.outcome && stack[stack.length - 1] === 'testcase') {
      const text = capturing.pieces.join('');
      // an empty <failure message="…"/> keeps its message as the output
      current!.parts[capturing.outcome] = text.trim() !== '' ? text : capturing.message;
      capturing = null;
      return;
    }
    if (current && tag.name === 'testcase' && !stack.includes('testcase')) {
      cases.push(toCase(current));
      current = null;
      if (cases.length > maxCases) throw new JunitParseError(`number of test cases exceeded the limit of ${maxCases}`, 'data');
    }
  });

  const text = typeof xml === 'string' ? xml : xml.toString('utf8');
  try {
    for (let at = 0; at < text.length; at += SLICE) parser.write(text.slice(at, at + SLICE));
    parser.close();
  } catch (error) {
    if (error instanceof JunitParseError) throw error;
    throw new JunitParseError((error as Error).message);
  }
  return cases;
}
