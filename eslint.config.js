// ESLint for every workspace, run by `npm run lint` (scripts/lint.mjs).
//
// typescript-eslint's recommended rules (syntax only, no type information: `npm run typecheck`
// already type-checks, and type-aware linting would cost minutes on this tree), React's hooks rules
// for the web app, and the import rules that keep the layers (ARCHITECTURE.md, "Layers and the lint"):
//
//   server/src:  platform <- git, auth <- domains, markdown <- api <- composition <- app.ts, server.ts
//                (main.ts, admin, runner import api and below, never composition/)
//   web/src:     lib <- components <- features <- app; a features/<area> folder is entered from
//                outside only through its index.ts; features/diffs imports nothing from features/diff-notes
//
// ("A <- B": B may import A, never the other way round.) Tests and server/src/test-support may
// import anything. Import cycles are found by scripts/import-cycles.mjs, which counts type-only
// imports (import-x/no-cycle skips them) and reads the whole tree in about a second.
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

// Tests and their helpers (test-support, server/test, the GraphQL test client) may import anything.
const TESTS = [
  '**/*.test.ts',
  '**/*.test.tsx',
  'server/src/test-support/**',
  'server/src/api/graphql/testing.ts',
  'server/test/**',
  'e2e/**',
  'bench/**',
];

// ---------------------------------------------------------------------------- server layers
const S = 'server/src';
const TOP = [`${S}/app.ts`, `${S}/server.ts`, `${S}/main.ts`, `${S}/admin`, `${S}/runner`, `${S}/local-runner.ts`];
const API = [`${S}/api`];
const DOMAINS = [`${S}/domains`, `${S}/markdown`];
const ADAPTERS = [`${S}/git`, `${S}/auth`];
const PLATFORM = [`${S}/platform`];
/** The composition root's families: imported by app.ts and server.ts only. */
const COMPOSITION = [`${S}/composition`];
const OTHER_TOP = TOP.filter((path) => path !== `${S}/app.ts` && path !== `${S}/server.ts`);

/**
 * Where the tree breaks a layer today. Each entry lets only these files import only these paths,
 * says why, and what would remove it. The import-cycle check (scripts/import-cycles.mjs) skips the
 * same type-only edges into app.ts.
 */
const LAYER_EXCEPTIONS = [
  {
    files: [`${S}/auth/actor.ts`, `${S}/auth/authorizer.ts`],
    imports: [
      `${S}/domains/users/user.ts`,
      `${S}/domains/projects/project.ts`,
      `${S}/domains/namespaces/namespace.ts`,
      `${S}/domains/members/members.repository.ts`,
    ],
    // Type-only: the permission function reads the User, Project and Namespace records and asks the
    // members repository for an effective access level. Removed by moving those record types below
    // auth/ (a model module the domains re-export) and letting the authorizer declare the one query it
    // needs as its own interface.
  },
  {
    files: [`${S}/api/rest/context.ts`, `${S}/api/graphql/widget/index.ts`, `${S}/api/git-http/hook-routes.ts`],
    imports: [`${S}/app.ts`],
    // Type-only: `Services` and `App` are inferred from createServices/buildApp in the composition
    // root. Removed by declaring the services container's type in a module of its own below api/
    // (createServices also builds the widget read model, so it cannot simply move down).
  },
];

/** One zone per forbidden source, so that an exception applies to the one layer it lies in. */
function zones(exceptions = []) {
  const rule = (targets, froms, message) =>
    targets.flatMap((target) =>
      froms.map((from) => ({
        target,
        from,
        except: exceptions.filter((path) => path.startsWith(`${from}/`)).map((path) => `./${path.slice(from.length + 1)}`),
        message,
      })),
    );
  return [
    ...rule(PLATFORM, [...ADAPTERS, ...DOMAINS, ...API, ...TOP], 'platform/ is the ground floor: it imports no other layer.'),
    ...rule(ADAPTERS, [...DOMAINS, ...API, ...TOP], 'git/ and auth/ import only platform/ (and each other).'),
    ...rule(DOMAINS, [...API, ...TOP], 'domains/ import platform/, git/ and auth/, never api/ or the app.'),
    ...rule(API, TOP, 'api/ never imports the composition root (app.ts, server.ts, main.ts, admin/).').map((zone) =>
      // a file as `from`: its exceptions are the file itself
      exceptions.includes(zone.from) ? null : zone,
    ).filter(Boolean),
    ...rule([...PLATFORM, ...ADAPTERS, ...DOMAINS, ...API, ...OTHER_TOP], COMPOSITION, 'only app.ts and server.ts import composition/.'),
    ...rule(COMPOSITION, TOP, 'composition/ imports api/ and below, never app.ts, server.ts, main.ts or admin/.'),
  ];
}

// ------------------------------------------------------------------------------ web layers
// lib/ (pure helpers) <- components/ (shared pieces) <- features/<area>/ <- app/ (router, layout).
const W = 'web/src';
/** What features import from app/ today: the API client and three small shared modules. */
const APP_SHARED = ['./client.ts', './NotFoundPage.tsx', './layout-width.ts', './route-access.ts'];
const webLayerZones = [
  { target: `${W}/lib`, from: `${W}/components`, message: 'lib/ holds pure helpers: it imports no components.' },
  { target: `${W}/lib`, from: `${W}/features`, message: 'lib/ holds pure helpers: it imports no feature.' },
  { target: `${W}/lib`, from: `${W}/app`, message: 'lib/ holds pure helpers: it imports nothing from app/.' },
  { target: `${W}/components`, from: `${W}/features`, message: 'components/ are shared by features: they import none.' },
  { target: `${W}/components`, from: `${W}/app`, message: 'components/ import nothing from app/.' },
  {
    target: `${W}/features`,
    from: `${W}/app`,
    // The API client and these small modules live in app/ for history's sake; moving them to lib/
    // would let features import nothing from app/.
    except: APP_SHARED,
    message: 'features import from app/ only the API client, NotFoundPage, layout-width and route-access.',
  },
  {
    // The viewer offers slots (features/diffs/DiffSlots.ts) that the merge request page fills with
    // diff comments; it works the same without them (commits, compare).
    target: `${W}/features/diffs`,
    from: `${W}/features/diff-notes`,
    message: 'features/diffs imports nothing from features/diff-notes: diff comments reach the viewer through its slots (DiffSlots).',
  },
];

// A features/<area> folder is entered from outside (other areas, app/, main.tsx) only through its
// index.ts, which states the area's public surface: components, hooks, queries, types, and a loader
// per lazily loaded page (`loadXPage = () => import('./XPage')`, so each page stays its own chunk).
// Every area has one. web/package.json declares the app's modules free of side effects, so the
// bundler binds each name to its own module and an index pulls nothing else into a chunk.
const FEATURES = `${W}/features`;
const areas = readdirSync(FEATURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const featureIndexZones = areas
  .filter((area) => existsSync(`${FEATURES}/${area}/index.ts`) || existsSync(`${FEATURES}/${area}/index.tsx`))
  .map((area) => ({
    target: [`${W}/*`, `${W}/!(features)/**/*`, `${FEATURES}/!(${area})/**/*`],
    from: `${FEATURES}/${area}`,
    except: ['./index.ts', './index.tsx'],
    message: `features/${area} is entered only through its index.`,
  }));

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'web/public/**', '**/*.d.ts', 'coverage/**', 'test-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['server/tsconfig.json', 'web/tsconfig.json', 'packages/contracts/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // A variable read by a cleanup closure before its one assignment cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests poke at untyped JSON and fakes; `any` there is a convenience, not a hole in a contract.
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: [`${S}/**/*.ts`],
    ignores: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: zones() }] },
  },
  ...LAYER_EXCEPTIONS.map(({ files, imports }) => ({
    files,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: zones(imports) }] },
  })),
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...webLayerZones, ...featureIndexZones] }] },
  },
);
