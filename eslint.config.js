// ESLint for every workspace, run by `npm run lint` (scripts/lint.mjs).
//
// typescript-eslint's recommended rules (syntax only, no type information: `npm run typecheck`
// already type-checks, and type-aware linting would cost minutes on this tree), React's hooks rules
// for the web app, and the import rules that keep the layers (ARCHITECTURE.md, "Layers and the lint"):
//
//   server/src:  platform <- git, auth <- domains, markdown <- api <- app.ts, server.ts, main.ts, admin
//   web/src:     a features/<area> folder is entered from outside only through its index.ts(x)
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

const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'server/src/test-support/**', 'e2e/**', 'bench/**'];

// ---------------------------------------------------------------------------- server layers
const S = 'server/src';
const TOP = [`${S}/app.ts`, `${S}/server.ts`, `${S}/main.ts`, `${S}/admin`];
const API = [`${S}/api`];
const DOMAINS = [`${S}/domains`, `${S}/markdown`];
const ADAPTERS = [`${S}/git`, `${S}/auth`];
const PLATFORM = [`${S}/platform`];

/** Known exceptions to the layers, each with why it is there and what would remove it. */
const LAYER_EXCEPTIONS = {
  // (filled in below where the tree breaks a rule today)
};

function zone(target, from, message) {
  return { target, from, except: LAYER_EXCEPTIONS[target] ?? [], message };
}

const serverZones = [
  ...PLATFORM.map((t) =>
    zone(t, [...ADAPTERS, ...DOMAINS, ...API, ...TOP], 'platform/ is the ground floor: it imports no other layer.'),
  ),
  ...ADAPTERS.map((t) =>
    zone(t, [...DOMAINS, ...API, ...TOP], 'git/ and auth/ import only platform/ (and each other).'),
  ),
  ...DOMAINS.map((t) => zone(t, [...API, ...TOP], 'domains/ import platform/, git/ and auth/, never api/ or the app.')),
  ...API.map((t) => zone(t, TOP, 'api/ never imports the composition root (app.ts, server.ts, main.ts, admin/).')),
];

// ------------------------------------------------------------------------ web feature folders
const FEATURES = 'web/src/features';
const areas = readdirSync(FEATURES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

/** Feature folders that have no index.ts(x) yet: entered through any file, until they get one. */
const webZones = areas
  .filter((area) => existsSync(`${FEATURES}/${area}/index.ts`) || existsSync(`${FEATURES}/${area}/index.tsx`))
  .map((area) => ({
    target: ['web/src/*', 'web/src/!(features)/**/*', `${FEATURES}/!(${area})/**/*`],
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
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: [`${S}/**/*.ts`],
    ignores: TESTS,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: serverZones }] },
  },
  webZones.length === 0
    ? {}
    : {
        files: ['web/src/**/*.{ts,tsx}'],
        ignores: TESTS,
        rules: { 'import-x/no-restricted-paths': ['error', { zones: webZones }] },
      },
);
