import { describe, expect, it } from 'vitest';

import { existsSatisfied, firstMatchingRule, onlyExceptIncludes, refPatternMatches } from './rules.js';
import { pushContext } from './test-context.js';

describe('only/except refs', () => {
  it.each([
    ['branches', {}, true],
    ['branches', { tag: true, ref: 'v1' }, false],
    ['tags', { tag: true, ref: 'v1' }, true],
    ['merge_requests', { source: 'merge_request_event' as const }, true],
    ['pushes', {}, true],
    ['web', { source: 'web' as const }, true],
    ['schedules', { source: 'schedule' as const }, true],
    ['triggers', { source: 'trigger' as const }, true],
    ['api', { source: 'api' as const }, true],
    ['pipelines', { source: 'parent_pipeline' as const }, true],
    ['main', {}, true],
    ['/^ma/', {}, true],
    ['/^MA/i', {}, true],
    ['/^ma/', { ref: 'feature' }, false],
    ['main@acme/app', {}, true],
    ['main@acme/fork', {}, false],
    ['branches@acme/app', {}, true],
  ])('%s on %j is %s', (entry, overrides, expected) => {
    expect(refPatternMatches(entry, pushContext(overrides))).toBe(expected);
  });

  it('excludes when any except part holds, includes when every only part holds', () => {
    const context = pushContext({ changedPaths: ['docs/a.md'] });
    expect(onlyExceptIncludes({ refs: ['main'], changes: ['docs/*'] }, undefined, context, context.variables)).toBe(true);
    expect(onlyExceptIncludes({ refs: ['main'], changes: ['src/*'] }, undefined, context, context.variables)).toBe(false);
    expect(onlyExceptIncludes(undefined, { variables: ['$CI_COMMIT_BRANCH == "main"'] }, context, context.variables)).toBe(false);
  });

  it('keeps the default refs (branches, tags) under only: {variables}, as GitLab deep-merges them', () => {
    const mr = pushContext({ source: 'merge_request_event', variables: { FLAG: '1' } });
    expect(onlyExceptIncludes({ variables: ['$FLAG'] }, undefined, mr, mr.variables)).toBe(false);
    const push = pushContext({ variables: { FLAG: '1' } });
    expect(onlyExceptIncludes({ variables: ['$FLAG'] }, undefined, push, push.variables)).toBe(true);
  });
});

describe('rules', () => {
  const context = pushContext({ changedPaths: ['src/app.ts'] });
  it('takes the first rule whose if, changes and exists all hold', () => {
    const rules = [
      { if: '$CI_COMMIT_TAG', when: 'always' },
      { if: '$CI_COMMIT_BRANCH', changes: ['docs/**/*'], when: 'manual' },
      { if: '$CI_COMMIT_BRANCH', changes: { paths: ['src/**/*'] }, exists: ['Dockerfile'], when: 'on_success', variables: { A: 1 } },
      { when: 'never' },
    ];
    expect(firstMatchingRule(rules, context, context.variables)).toMatchObject({ when: 'on_success', variables: { A: 1 } });
  });

  it('answers null when nothing matches', () => {
    expect(firstMatchingRule([{ if: '$NOPE' }], context, context.variables)).toBeNull();
  });

  it('runs an adversarial pattern from the configuration in linear time', () => {
    const long = { ...context.variables, MSG: `${'a'.repeat(100_000)}!` };
    expect(firstMatchingRule([{ if: '$MSG =~ /^(a+)+$/' }], context, long)).toBeNull();
    expect(refPatternMatches('/^(a|a)*$/', pushContext({ ref: `${'a'.repeat(100_000)}!` }))).toBe(false);
  });
});

describe('rules:exists', () => {
  it('finds plain paths and globs', () => {
    expect(existsSatisfied(['Dockerfile'], ['README.md', 'Dockerfile'])).toBe(true);
    expect(existsSatisfied(['/Dockerfile'], ['Dockerfile'])).toBe(true);
    expect(existsSatisfied(['**/*.go'], ['cmd/main.go'])).toBe(true);
    expect(existsSatisfied(['**/*.go', 'go.mod'], ['main.rs'])).toBe(false);
  });

  it('stops comparing after 50,000 checks and answers true, as GitLab documents', () => {
    const paths = Array.from({ length: 60_000 }, (_, i) => `src/file${i}.ts`);
    expect(existsSatisfied(['**/*.go'], paths)).toBe(true);
  });
});
