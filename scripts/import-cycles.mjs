// Finds import cycles among the repository's TypeScript files, type-only imports included.
//
// ESLint's `import-x/no-cycle` skips `import type`, and a cycle of types is still two modules that
// cannot be read (or moved) one without the other; this check counts every import, export-from and
// import() between the project's own files. It reads imports with TypeScript's pre-processor (no
// type checking), so the whole tree takes about a second. Used by scripts/lint.mjs; alone:
//   node scripts/import-cycles.mjs
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['server/src', 'server/test', 'web/src', 'packages/contracts/src', 'e2e', 'bench'];
const SKIP_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results']);

/**
 * Imports left out of the graph, each type-only and listed with its reason in eslint.config.js
 * (LAYER_EXCEPTIONS): the REST context and the widget read model name the services container's
 * type, which is inferred in the composition root that builds them.
 */
const IGNORED_EDGES = new Set([
  'server/src/api/rest/context.ts -> server/src/app.ts',
  'server/src/api/graphql/widget/index.ts -> server/src/app.ts',
  'server/src/api/git-http/hook-routes.ts -> server/src/app.ts',
]);

function listSources(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...listSources(path));
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

const isFile = (path) => existsSync(path) && statSync(path).isFile();

/** Resolves a relative specifier the way NodeNext (`./x.js` → `./x.ts`) and Vite (`./x` → `./x.tsx`) do. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts'), join(base, 'index.tsx')];
  return candidates.find((c) => /\.(ts|tsx|mts)$/.test(c) && isFile(c));
}

/** The project's import graph: file → the project's files it imports (any kind of import). */
export function importGraph(root = ROOT) {
  const files = SOURCE_DIRS.flatMap((dir) => listSources(join(root, dir)));
  const graph = new Map();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveRelative(file, fileName);
      if (!target || target === file) continue;
      if (IGNORED_EDGES.has(`${relative(root, file)} -> ${relative(root, target)}`)) continue;
      targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components with more than one file (Tarjan's algorithm, iterative). */
export function findCycles(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const cycles = [];
  for (const start of graph.keys()) {
    if (indexOf.has(start)) continue;
    const work = [[start, 0]];
    indexOf.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const next = (graph.get(node) ?? [])[i];
      if (next !== undefined) {
        frame[1]++;
        if (!graph.has(next)) continue;
        if (!indexOf.has(next)) {
          indexOf.set(next, index);
          low.set(next, index++);
          stack.push(next);
          onStack.add(next);
          work.push([next, 0]);
        } else if (onStack.has(next)) {
          low.set(node, Math.min(low.get(node), indexOf.get(next)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indexOf.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** Prints each cycle with the imports that tie it; returns how many cycles there are. */
export function reportCycles(root = ROOT, log = console.log) {
  const graph = importGraph(root);
  const cycles = findCycles(graph);
  for (const component of cycles) {
    const members = new Set(component);
    log(`\nimport cycle of ${component.length} files:`);
    for (const file of component) {
      for (const target of graph.get(file) ?? []) {
        if (members.has(target)) log(`  ${relative(root, file)} -> ${relative(root, target)}`);
      }
    }
  }
  return cycles.length;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const count = reportCycles();
  console.log(count === 0 ? 'import cycles: none' : `\nimport cycles: ${count}`);
  process.exitCode = count === 0 ? 0 : 1;
}
