#!/usr/bin/env node
// The `tributary` command: runs the bundled server (npm run build), or the
// TypeScript sources through tsx when no build exists yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';

const bundle = fileURLToPath(new URL('../dist/tributary.mjs', import.meta.url));
if (existsSync(bundle)) {
  await import(bundle);
} else {
  const source = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // SIGTERM (a service manager, a test) is passed on so that `start` and `runner` stop cleanly;
  // SIGINT from a terminal already reaches the child through the process group, so it is only ignored here.
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  process.on('SIGINT', () => {});
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 143 : 1)));
}
