/**
 * GitLab's CI/CD variable expressions (`rules:if`, `workflow:rules:if`, `only: variables`), as
 * lib/gitlab/ci/pipeline/expression: `$VAR`, "string" / 'string' (no escapes, no expansion),
 * `null`, `/pattern/flags`, `==`, `!=`, `=~`, `!~`, `&&` (binds tighter), `||`, parentheses.
 * A variable that is not defined is `null`; a bare `$VAR` is true when it is defined and not empty.
 * The right side of `=~` may be a variable holding `/pattern/`, as GitLab expands it.
 *
 * Patterns run on RE2 (re2js), linear in the input whatever the pattern: a pipeline author cannot
 * make the server backtrack for ever (GitLab's Gitlab::UntrustedRegexp is RE2 too).
 */
import { RE2JS } from 're2js';

type Token =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; source: string }
  | { kind: 'null' }
  | { kind: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { kind: 'paren'; open: boolean };

type Node =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; source: string }
  | { kind: 'null' }
  | { kind: 'binary'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||'; left: Node; right: Node };

export class ExpressionSyntaxError extends Error {}

const MAX_EXPRESSION_LENGTH = 10_000;
const MAX_NESTING = 50;

function tokenize(text: string): Token[] {
  if (text.length > MAX_EXPRESSION_LENGTH) throw new ExpressionSyntaxError('expression too long');
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '=~' || two === '!~' || two === '&&' || two === '||') {
      tokens.push({ kind: 'op', op: two });
      i += 2;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: 'paren', open: c === '(' });
      i++;
      continue;
    }
    if (c === '$') {
      const match = /^\$(\w+)/.exec(text.slice(i, i + 256));
      if (!match) throw new ExpressionSyntaxError('bad variable');
      tokens.push({ kind: 'variable', name: match[1]! });
      i += match[0].length;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionSyntaxError('unterminated string');
      tokens.push({ kind: 'string', value: text.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    if (c === '/') {
      let j = i + 1;
      while (j < text.length && text[j] !== '/') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new ExpressionSyntaxError('unterminated pattern');
      j++;
      while (j < text.length && /[ismU]/.test(text[j]!)) j++;
      const source = text.slice(i, j);
      if (!compilePattern(source)) throw new ExpressionSyntaxError('invalid pattern');
      tokens.push({ kind: 'pattern', source });
      i = j;
      continue;
    }
    if (text.startsWith('null', i) && !/\w/.test(text[i + 4] ?? '')) {
      tokens.push({ kind: 'null' });
      i += 4;
      continue;
    }
    throw new ExpressionSyntaxError(`unexpected ${c}`);
  }
  return tokens;
}

export function parseExpression(text: string): Node {
  const tokens = tokenize(text);
  let position = 0;
  const parseOr = (depth: number): Node => {
    let left = parseAnd(depth);
    while (peekOp('||')) {
      position++;
      left = { kind: 'binary', op: '||', left, right: parseAnd(depth) };
    }
    return left;
  };
  const parseAnd = (depth: number): Node => {
    let left = parseComparison(depth);
    while (peekOp('&&')) {
      position++;
      left = { kind: 'binary', op: '&&', left, right: parseComparison(depth) };
    }
    return left;
  };
  const parseComparison = (depth: number): Node => {
    const left = parsePrimary(depth);
    const token = tokens[position];
    if (token?.kind === 'op' && (token.op === '==' || token.op === '!=' || token.op === '=~' || token.op === '!~')) {
      position++;
      const right = parsePrimary(depth);
      return { kind: 'binary', op: token.op, left, right };
    }
    return left;
  };
  const parsePrimary = (depth: number): Node => {
    const token = tokens[position++];
    if (!token) throw new ExpressionSyntaxError('unexpected end');
    if (token.kind === 'paren' && token.open) {
      if (depth >= MAX_NESTING) throw new ExpressionSyntaxError('too deep');
      const inner = parseOr(depth + 1);
      const close = tokens[position++];
      if (close?.kind !== 'paren' || close.open) throw new ExpressionSyntaxError('unbalanced parentheses');
      return inner;
    }
    if (token.kind === 'paren' || token.kind === 'op') throw new ExpressionSyntaxError('unexpected operator');
    return token;
  };
  const peekOp = (op: string) => {
    const token = tokens[position];
    return token?.kind === 'op' && token.op === op;
  };
  const tree = parseOr(0);
  if (position !== tokens.length) throw new ExpressionSyntaxError('unexpected token');
  return tree;
}

/** True when GitLab would accept the expression in a configuration (`invalid expression syntax` otherwise). */
export function isValidExpression(text: string): boolean {
  try {
    parseExpression(text);
    return true;
  } catch {
    return false;
  }
}

/** GitLab's `/pattern/flags` syntax compiled to RE2, or null when it is not one or RE2 refuses it. */
export function compilePattern(source: string): RE2JS | null {
  const match = /^\/([\s\S]*)\/([ismU]*)$/.exec(source);
  if (!match) return null;
  const flags = match[2]!;
  let flagBits = 0;
  if (flags.includes('i')) flagBits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) flagBits |= RE2JS.MULTILINE;
  if (flags.includes('s')) flagBits |= RE2JS.DOTALL;
  if (flags.includes('U')) flagBits |= RE2JS.LONGEST_MATCH;
  try {
    return RE2JS.compile(match[1]!, flagBits);
  } catch {
    return null;
  }
}

type Value = string | boolean | null | { pattern: string };

/** Evaluates an expression against the pipeline's variables; true when the rule matches. */
export function evaluateExpression(text: string, variables: Readonly<Record<string, string>>): boolean {
  return truthy(evaluate(parseExpression(text), variables));
}

function evaluate(node: Node, variables: Readonly<Record<string, string>>): Value {
  switch (node.kind) {
    case 'variable':
      return Object.prototype.hasOwnProperty.call(variables, node.name) ? variables[node.name]! : null;
    case 'string':
      return node.value;
    case 'null':
      return null;
    case 'pattern':
      return { pattern: node.source };
    case 'binary': {
      if (node.op === '&&') {
        const left = evaluate(node.left, variables);
        return truthy(left) ? evaluate(node.right, variables) : left;
      }
      if (node.op === '||') {
        const left = evaluate(node.left, variables);
        return truthy(left) ? left : evaluate(node.right, variables);
      }
      const left = evaluate(node.left, variables);
      const right = evaluate(node.right, variables);
      if (node.op === '==' || node.op === '!=') {
        const equal = scalar(left) === scalar(right);
        return node.op === '==' ? equal : !equal;
      }
      const matched = matches(left, right);
      return node.op === '=~' ? matched : !matched;
    }
  }
}

function scalar(value: Value): string | boolean | null {
  return value !== null && typeof value === 'object' ? value.pattern : value;
}

function matches(left: Value, right: Value): boolean {
  if (typeof left !== 'string') return false;
  const source = right !== null && typeof right === 'object' ? right.pattern : typeof right === 'string' ? right : null;
  if (source === null) return false;
  const pattern = compilePattern(source);
  return pattern ? pattern.matcher(left).find() : false;
}

function truthy(value: Value): boolean {
  if (value === null || value === false) return false;
  if (typeof value === 'string') return value.length > 0;
  return true;
}
