/**
 * Maps git's stderr to a small set of typed codes, so callers branch on a code and never
 * on message text. Pure; tested against literal git 2.39 output (error-codes.test.ts).
 * Order matters: the specific `cannot lock ref` causes are checked before the generic one.
 */
export type GitErrorCode =
  | 'unknown-revision'
  | 'invalid-object-name'
  | 'bad-object'
  | 'not-a-tree'
  | 'ref-locked'
  | 'ref-mismatch'
  | 'ref-exists'
  | 'ref-missing'
  | 'ref-dir-conflict'
  | 'cannot-lock-ref'
  | 'nonexistent-object'
  | 'non-commit-object'
  | 'not-a-repository'
  | 'unknown';

const RULES: ReadonlyArray<readonly [RegExp, GitErrorCode]> = [
  [/unknown revision or path not in the working tree|bad revision '|not something we can merge/, 'unknown-revision'],
  [/Not a valid object name|invalid object name|Not a valid commit name/i, 'invalid-object-name'],
  [/fatal: bad object /, 'bad-object'],
  [/not a tree object/, 'not-a-tree'],
  [/Unable to create '[^\n]*\.lock': File exists/, 'ref-locked'],
  [/cannot lock ref '[^\n]*': is at [0-9a-f]+ but expected [0-9a-f]+/, 'ref-mismatch'],
  [/cannot lock ref '[^\n]*': reference already exists/, 'ref-exists'],
  [/cannot lock ref '[^\n]*': unable to resolve reference/, 'ref-missing'],
  [/cannot lock ref '[^\n]*': '[^\n]*' exists; cannot create|there are still refs under/, 'ref-dir-conflict'],
  [/cannot lock ref/, 'cannot-lock-ref'],
  [/trying to write ref '[^\n]*' with nonexistent object/, 'nonexistent-object'],
  [/trying to write non-commit object/, 'non-commit-object'],
  [/not a git repository/, 'not-a-repository'],
];

export function classifyGitError(stderr: string): GitErrorCode {
  for (const [pattern, code] of RULES) {
    if (pattern.test(stderr)) return code;
  }
  return 'unknown';
}

/** Codes meaning "a compare-and-swap ref update lost or could not take its lock". */
export const REF_CONFLICT_CODES: ReadonlySet<GitErrorCode> = new Set<GitErrorCode>([
  'ref-locked',
  'ref-mismatch',
  'ref-exists',
  'ref-missing',
  'ref-dir-conflict',
  'cannot-lock-ref',
]);
