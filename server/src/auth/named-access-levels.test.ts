import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Both the server and the web app (web/src: its settings forms, members pages and permission rules).
const ROOTS = ['../../../server/src', '../../../web/src'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
/** A role compared with, defaulted to or assigned as a bare number: `accessLevel >= 30`, `access_level: 40`, `?? 10`. */
const RAW_LEVEL = /\b\w*(?:access_?level|accessLevel|Level|\blevel)\w*\s*(?:>=|<=|===|!==|<|>|\?\?|:|=)\s*(?:5|10|15|20|30|40|50|60)\b(?!\s*[*/]|\s*\d)/;
/** The web app's forms: a role held in state (`useState(40)`) or offered as a choice (`{ value: 40, label: 'Maintainers' }`). */
const RAW_FORM_LEVEL = /\buseState(?:<\w+>)?\(\s*(?:5|10|15|20|30|40|50|60)\s*\)|\bvalue\s*:\s*(?:0|5|10|15|20|30|40|50|60)\s*,\s*label\s*:\s*['"`][^'"`]*(?:No one|Guest|Planner|Reporter|Developer|Maintainer|Owner|Admin)/;
const isRawLevel = (line: string) => RAW_LEVEL.test(line) || RAW_FORM_LEVEL.test(line);

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
        .flatMap((line, index) => (isRawLevel(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it.each([
    ['if (accessLevel >= 30) {', true],
    ["{ access_level: 40 }", true],
    ['const level = member?.access_level ?? 10;', true],
    ['const [create, setCreate] = useState(40);', true],
    ['const [merge, setMerge] = useState<number>(30);', true],
    ["  { value: 40, label: 'Maintainers' },", true],
    ["  { value: 0, label: 'No one' },", true],
    ['const [create, setCreate] = useState<number>(DEFAULT_PROTECTED_REF_ACCESS);', false],
    ["  { value: AccessLevel.Maintainer, label: 'Maintainers' },", false],
    ['const [width, setWidth] = useState(0);', false],
    ['const [page, setPage] = useState(1);', false],
    ["export const USERS_PER_PAGE = 20;", false],
    ["diffHeadSha: 'a'.repeat(40),", false],
    ["  { value: 20, label: 'Per page' },", false],
  ])('%s → a bare role: %s', (line, bare) => {
    expect(isRawLevel(line)).toBe(bare);
  });
});
