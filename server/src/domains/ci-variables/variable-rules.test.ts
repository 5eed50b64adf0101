import { describe, expect, it } from 'vitest';
import type { CiVariable, VariableOwner } from './ci-variable.js';
import { variableErrors, type VariableFields } from './variable-rules.js';

const project: VariableOwner = { kind: 'project', id: 1 };
const instance: VariableOwner = { kind: 'instance' };
const fields = (extra: Partial<VariableFields> = {}): VariableFields => ({
  key: 'KEY',
  value: 'value',
  variable_type: 'env_var',
  protected: false,
  masked: false,
  hidden: false,
  raw: false,
  environment_scope: '*',
  description: null,
  ...extra,
});

describe('variableErrors', () => {
  it.each<[string, VariableOwner, Partial<VariableFields>, Record<string, string[]> | null]>([
    ['a plain variable', project, {}, null],
    ['an empty key', project, { key: '' }, { key: ["can't be blank", "can contain only letters, digits and '_'."] }],
    ['a key with a dash', project, { key: 'MY-KEY' }, { key: ["can contain only letters, digits and '_'."] }],
    ['a 256-character key', project, { key: 'K'.repeat(256) }, { key: ['is too long (maximum is 255 characters)'] }],
    ['a 255-character key', project, { key: 'K'.repeat(255) }, null],
    ['a masked short value', project, { masked: true, value: 'short' }, { value: ['is invalid'] }],
    ['a masked value with a space', project, { masked: true, value: 'has a space' }, { value: ['is invalid'] }],
    ['a masked two-line value', project, { masked: true, value: 'line-one\nline-two' }, { value: ['is invalid'] }],
    ['a masked value outside Base64', project, { masked: true, value: 'hello!!!world' }, { value: ['is invalid'] }],
    ['a masked Base64 value with @:.~-', project, { masked: true, value: 'Hello+World_123/@:-~.=' }, null],
    ['a masked raw value may use other characters', project, { masked: true, raw: true, value: 'HelloWorld%#^' }, null],
    ['a masked raw value still needs 8 characters', project, { masked: true, raw: true, value: 'a%#^' }, { value: ['is invalid'] }],
    ['an unmasked value may be anything', project, { value: 'hello world\n$X' }, null],
    ['a bad environment scope', project, { environment_scope: 'prod!' }, { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] }],
    ['a wildcard environment scope', project, { environment_scope: 'review/*' }, null],
    ['hidden without masked', project, { hidden: true }, { masked: ['should be true when variable is hidden'] }],
    ['a long description', project, { description: 'd'.repeat(256) }, { description: ['is too long (maximum is 255 characters)'] }],
    ['an instance value over 10000 characters', instance, { value: 'v'.repeat(10_001) }, { value: ['The value of the provided variable exceeds the 10000 character limit'] }],
  ])('%s', (_name, owner, extra, expected) => {
    expect(variableErrors(owner, fields(extra))).toEqual(expected);
  });

  it('keeps hidden as created: it cannot be set or unset later, nor masked changed on a hidden variable', () => {
    const stored = (extra: Partial<CiVariable>): CiVariable => ({ id: 1, project_id: 1, group_id: null, ...fields(), ...extra });
    expect(variableErrors(project, fields({ masked: true, hidden: true, value: 'abcdefgh' }), stored({ masked: true, value: 'abcdefgh' }))).toEqual({
      base: ['Only new variables can be set as masked and hidden.'],
    });
    expect(variableErrors(project, fields({ masked: false, hidden: true, value: 'abcdefgh' }), stored({ masked: true, hidden: true, value: 'abcdefgh' }))).toEqual({
      base: ['The visibility setting cannot be changed for masked and hidden variables.'],
    });
    expect(variableErrors(project, fields({ masked: true, hidden: true, value: 'abcdefgh2' }), stored({ masked: true, hidden: true, value: 'abcdefgh' }))).toBeNull();
  });
});
