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

/** A web feature's index (web/src/features/<area>/index.ts): it only names what the area offers. */
const isFeatureIndex = (root, file) => /^web\/src\/features\/[^/]+\/index\.tsx?$/.test(relative(root, file).split('\\').join('/'));

/**
 * What a feature index offers, name → the file that name comes from: `export { a, b } from './x'`
 * (→ x) and a page loader `export const loadX = () => import('./X')` (→ X).
 */
function indexExports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const names = new Map();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      const target = resolveRelative(file, statement.moduleSpecifier.text);
      for (const element of statement.exportClause.elements) if (target) names.set(element.name.text, target);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const loaded = declaration.initializer && /import\(\s*'([^']+)'\s*\)/.exec(declaration.initializer.getText(source));
        const target = loaded && resolveRelative(file, loaded[1]);
        if (target && ts.isIdentifier(declaration.name)) names.set(declaration.name.text, target);
      }
    }
  }
  return names;
}

/** The names a file takes from each specifier it imports or re-exports by name (null: the whole module). */
function namedImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const bySpecifier = new Map();
  const add = (specifier, names) => {
    const known = bySpecifier.get(specifier);
    bySpecifier.set(specifier, known === null || names === null ? null : [...(known ?? []), ...names]);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      if (clause && !clause.name && bindings && ts.isNamedImports(bindings)) add(statement.moduleSpecifier.text, bindings.elements.map((e) => (e.propertyName ?? e.name).text));
      else add(statement.moduleSpecifier.text, null);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) add(statement.moduleSpecifier.text, clause.elements.map((e) => (e.propertyName ?? e.name).text));
      else add(statement.moduleSpecifier.text, null);
    }
  }
  return bySpecifier;
}

/**
 * The project's import graph: file → the project's files it imports (any kind of import). An import
 * through a web feature's index counts as an import of the files its names come from: an index only
 * re-exports (and loads pages lazily), the bundler binds each name to its own module, and the web
 * app's modules are declared free of side effects (web/package.json), so an index joins nothing.
 */
export function importGraph(root = ROOT) {
  const files = SOURCE_DIRS.flatMap((dir) => listSources(join(root, dir)));
  const graph = new Map();
  const indexes = new Map();
  const offered = (index) => {
    if (!indexes.has(index)) indexes.set(index, indexExports(index));
    return indexes.get(index);
  };
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    let named;
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveRelative(file, fileName);
      if (!target || target === file) continue;
      if (IGNORED_EDGES.has(`${relative(root, file)} -> ${relative(root, target)}`)) continue;
      if (isFeatureIndex(root, target) && dirname(target) !== dirname(file)) {
        named ??= namedImports(file);
        const names = named.get(fileName);
        const sources = names ? names.map((name) => offered(target).get(name)) : [];
        if (names && sources.every(Boolean)) {
          for (const source of sources) if (source !== file) targets.add(source);
          continue;
        }
      }
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
