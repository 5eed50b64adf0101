import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOTS = ['../../../server/src', '../../../web/src'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
/** A role compared with, defaulted to or assigned as a bare number: `accessLevel >= 30`, `access_level: 40`, `?? 10`. */
const RAW_LEVEL = /\b\w*(?:access_?level|accessLevel|Level|\blevel)\w*\s*(?:>=|<=|===|!==|<|>|\?\?|:|=)\s*(?:5|10|15|20|30|40|50|60)\b(?!\s*[*/]|\s*\d)/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !path.includes('test-support') ? [path] : [];
  });
}

/** Roles are named (AccessLevel.Developer), never written as GitLab's numbers, outside tests. */
describe('named access levels', () => {
  it('no source compares or assigns a role as a bare number', () => {
    const offenders = ROOTS.flatMap(sources).flatMap((path) =>
      readFileSync(path, 'utf8')
        .split('\n')
        .flatMap((line, index) => (RAW_LEVEL.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
