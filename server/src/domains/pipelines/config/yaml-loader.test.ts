import { describe, expect, it } from 'vitest';

import { loadYaml, YamlReference } from './yaml-loader.js';

describe('loading untrusted YAML', () => {
  it('reads anchors, merge keys, !reference and Psych’s booleans', () => {
    const result = loadYaml('.a: &a { image: ruby, tags: [x, y] }\njob:\n  <<: *a\n  script: !reference [.a, tags]\n  interruptible: yes\n');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.job).toMatchObject({ image: 'ruby', tags: ['x', 'y'], interruptible: true });
    expect((result.value.job as { script: unknown }).script).toEqual(new YamlReference(['.a', 'tags']));
  });

  it('refuses a billion-laughs document without expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    expect(loadYaml(levels.join('\n'))).toEqual({ ok: false, error: 'The parsed YAML is too big' });
  });

  it('refuses a self-referencing alias and data nested deeper than 100 levels', () => {
    expect(loadYaml('--- &1\n- hi\n- *1\n')).toEqual({ ok: false, error: 'The parsed YAML is too big' });
    expect(loadYaml(`a: ${'['.repeat(150)}${']'.repeat(150)}\n`)).toEqual({ ok: false, error: 'The parsed YAML is too big' });
  });

  it('refuses a file larger than 1 MB before parsing it', () => {
    expect(loadYaml(`a: "${'x'.repeat(1024 * 1024)}"\n`)).toEqual({ ok: false, error: 'The provided YAML is too big' });
  });

  it('never constructs objects from tags (no code runs)', () => {
    const result = loadYaml('a: !!js/function "function () { process.exit(1) }"\nb: !ruby/object:Gem::Installer { i: x }\n');
    if (result.ok) {
      expect(typeof result.value.a).not.toBe('function');
      expect(Object.getPrototypeOf(result.value.b ?? {})).toBe(Object.prototype);
    } else {
      expect(result.error).toMatch(/^\(<unknown>\)/);
    }
  });

  it('answers Psych-shaped syntax errors and GitLab’s format error', () => {
    expect(loadYaml('a: [\n')).toMatchObject({ ok: false, error: expect.stringMatching(/^\(<unknown>\): .* at line \d+ column \d+$/) });
    expect(loadYaml('just a string')).toEqual({ ok: false, error: 'Invalid configuration format' });
  });
});
