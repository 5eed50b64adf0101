#!/usr/bin/env node
// The `tributary` command: runs the bundled server (npm run build), or the
// TypeScript sources through tsx when no build exists yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const bundle = fileURLToPath(new URL('../dist/tributary.mjs', import.meta.url));
if (existsSync(bundle)) {
  await import(bundle);
} else {
  const source = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const result = spawnSync(process.execPath, ['--import', 'tsx', source, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
