// `npm run lint`: ESLint over every workspace (eslint.config.js: typescript-eslint, React hooks, the
// layer boundaries) and the import-cycle check (scripts/import-cycles.mjs, type imports included).
// Exits non-zero on any error; the last line is the summary:
//   lint: N errors (eslint: N in N files, import cycles: N)
// ESLint's results are cached in node_modules/.cache/eslint (a file is linted again when it or the
// config changes). The cycle check always reads the whole tree, because a cycle is a property of
// several files and a per-file cache would keep a mended one.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { reportCycles } from './import-cycles.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const started = Date.now();
const eslint = new ESLint({
  cwd: root,
  cache: true,
  cacheLocation: resolve(root, 'node_modules/.cache/eslint/'),
  cacheStrategy: 'content',
  fix: process.argv.includes('--fix'),
});
const results = await eslint.lintFiles(['.']);
if (process.argv.includes('--fix')) await ESLint.outputFixes(results);
const formatter = await eslint.loadFormatter('stylish');
const text = await formatter.format(results);
if (text) console.log(text);

const eslintErrors = results.reduce((sum, r) => sum + r.errorCount, 0);
const eslintWarnings = results.reduce((sum, r) => sum + r.warningCount, 0);
const filesWithErrors = results.filter((r) => r.errorCount > 0).length;
const cycles = reportCycles(root);

const total = eslintErrors + cycles;
const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `\nlint: ${total} errors (eslint: ${eslintErrors} in ${filesWithErrors} files` +
    `${eslintWarnings ? `, ${eslintWarnings} warnings` : ''}, import cycles: ${cycles}) ` +
    `in ${results.length} files, ${seconds} s`,
);
process.exitCode = total === 0 ? 0 : 1;
