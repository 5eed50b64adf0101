import { describe, expect, it } from 'vitest';

import { evaluateExpression, isValidExpression } from './expression.js';

const vars = {
  CI_COMMIT_BRANCH: 'main',
  CI_PIPELINE_SOURCE: 'push',
  CI_COMMIT_TAG_MESSAGE: '',
  CI_COMMIT_MESSAGE: 'Fix the build [deploy]',
  PATTERN: '/^rel.*$/',
  CI_COMMIT_REF_NAME: 'release-1.2',
};

describe('GitLab CI/CD variable expressions', () => {
  it.each([
    ['$CI_COMMIT_BRANCH == "main"', true],
    ["$CI_COMMIT_BRANCH == 'main'", true],
    ['$CI_COMMIT_BRANCH != "main"', false],
    ['$CI_COMMIT_TAG', false],
    ['$CI_COMMIT_TAG == null', true],
    ['$CI_COMMIT_BRANCH != null', true],
    ['$CI_COMMIT_TAG_MESSAGE', false],
    ['$CI_COMMIT_BRANCH', true],
    ['$CI_COMMIT_MESSAGE =~ /\\[deploy\\]/', true],
    ['$CI_COMMIT_MESSAGE !~ /\\[deploy\\]/', false],
    ['$CI_COMMIT_BRANCH =~ /^MAIN$/i', true],
    ['$CI_COMMIT_BRANCH =~ /^MAIN$/', false],
    ['$CI_COMMIT_REF_NAME =~ $PATTERN', true],
    ['$UNDEFINED =~ /.*/', false],
    ['$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == "dev" || $CI_COMMIT_BRANCH == "main"', true],
    ['$CI_PIPELINE_SOURCE == "push" && ($CI_COMMIT_BRANCH == "dev" || $CI_COMMIT_TAG)', false],
    ['($CI_PIPELINE_SOURCE == "web" || $CI_PIPELINE_SOURCE == "push") && $CI_COMMIT_BRANCH', true],
    ['"a" == "a"', true],
    ['$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', false],
  ])('%s is %s', (expression, expected) => {
    expect(evaluateExpression(expression, vars)).toBe(expected);
  });

  it.each(['$A ==', '$A == "x', '($A == "x"', '$A = "x"', 'main', '$A =~ /(/', '&& $A'])('%s is invalid syntax', (expression) => {
    expect(isValidExpression(expression)).toBe(false);
  });

  it('matches a pathological pattern in linear time (RE2, no backtracking)', () => {
    const long = { V: 'a'.repeat(50_000) + '!' };
    expect(evaluateExpression('$V =~ /^(a+)+$/', long)).toBe(false);
    expect(evaluateExpression('$V =~ /^(a|aa)*b$/', long)).toBe(false);
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    expect(isValidExpression('('.repeat(5000) + '$A' + ')'.repeat(5000))).toBe(false);
  });
});
