/**
 * A Docker image for the Docker executor's tests, made on this machine without a registry: a
 * root filesystem of this host's bash, sh, a few coreutils and node, with the libraries they
 * load, imported with `docker import`. Docker itself may be missing (tests then skip).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export const TEST_IMAGE = 'tributary-test-node:1';

/** Whether a Docker daemon answers here. */
export async function dockerAvailable(): Promise<boolean> {
  try {
    await exec('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** The program's file on PATH (builtins of the shell have one too). */
function onPath(program: string): string {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':')) if (dir && existsSync(join(dir, program))) return join(dir, program);
  throw new Error(`${program} is not on PATH`);
}

/** The test image, imported once per daemon. */
export async function ensureTestImage(): Promise<string> {
  const known = await exec('docker', ['image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE]).then(() => true, () => false);
  if (known) return TEST_IMAGE;
  const root = await mkdtemp(join(tmpdir(), 'tributary-image-'));
  try {
    const programs = ['bash', 'sh', 'cat', 'mkdir', 'ls', 'rm', 'env', 'sleep', 'true', process.execPath];
    const files = new Set<string>();
    for (const program of programs) {
      const path = program.startsWith('/') ? program : onPath(program);
      const real = (await exec('readlink', ['-f', path])).stdout.trim();
      const target = program === process.execPath ? '/usr/bin/node' : `/bin/${program}`;
      await mkdir(join(root, dirname(target)), { recursive: true });
      await copyFile(real, join(root, target));
      const { stdout } = await exec('ldd', [real]).catch(() => ({ stdout: '' }));
      for (const match of stdout.matchAll(/(\/\S+)/g)) files.add(match[1]!);
    }
    for (const library of files) {
      await mkdir(join(root, dirname(library)), { recursive: true });
      await copyFile((await exec('readlink', ['-f', library])).stdout.trim(), join(root, library));
    }
    await mkdir(join(root, 'usr/bin'), { recursive: true });
    await exec('ln', ['-sf', '/bin/env', join(root, 'usr/bin/env')]);
    await mkdir(join(root, 'tmp'), { recursive: true });
    await exec('sh', ['-c', `tar -C ${JSON.stringify(root)} -c . | docker import - ${TEST_IMAGE}`], { maxBuffer: 1 << 20, timeout: 300_000 });
    return TEST_IMAGE;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
