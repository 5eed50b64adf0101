import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRef } from './refs.js';
import { rawGit, makeTempDir } from './scenarios/scenarios.js';
import { createBareRepository, defaultBranch, hashedRepositoryPath, pathExists, removeRepository, repositoryPath, setDefaultBranch } from './storage.js';

describe('hashedRepositoryPath', () => {
  it('uses GitLab\'s hashed layout from the project id only', () => {
    // sha256("1") = 6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b
    expect(hashedRepositoryPath(1)).toBe('@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git');
    expect(repositoryPath('/data', 1)).toBe('/data/repositories/@hashed/6b/86/6b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b.git');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %s', (id) => {
    expect(() => hashedRepositoryPath(id)).toThrow();
  });
});

describe('createBareRepository', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('creates an empty bare repository with HEAD on the default branch and server settings', async () => {
    const repo = repositoryPath(dataDir, 7);
    await createBareRepository(repo, 'trunk');
    expect(await readFile(join(repo, 'HEAD'), 'utf8')).toBe('ref: refs/heads/trunk\n');
    expect(await defaultBranch(repo)).toBe('trunk');
    expect(await readRef(repo, 'refs/heads/trunk')).toBeNull();
    const config = await rawGit(repo, 'config', '--local', '--list');
    expect(config).toMatch(/^core\.bare=true$/m);
    expect(config).toMatch(/^receive\.fsckobjects=true$/m);
    expect(config).toMatch(/^uploadpack\.allowanysha1inwant=false$/m);
    expect(config).toMatch(/^core\.fsync=committed,reference$/m); // git 2.39 knows core.fsync
    expect(await pathExists(join(repo, 'hooks'))).toBe(false); // no sample hooks
  });

  it('refuses an invalid default branch and an existing repository', async () => {
    await expect(createBareRepository(repositoryPath(dataDir, 8), '--output=x')).rejects.toThrow(/Branch name is invalid/);
    await createBareRepository(repositoryPath(dataDir, 9), 'main');
    await expect(createBareRepository(repositoryPath(dataDir, 9), 'main')).rejects.toThrow(/already exists/);
  });

  it('moves HEAD with setDefaultBranch', async () => {
    const repo = repositoryPath(dataDir, 10);
    await createBareRepository(repo, 'main');
    await setDefaultBranch(repo, 'develop');
    expect(await defaultBranch(repo)).toBe('develop');
    await expect(setDefaultBranch(repo, 'a..b')).rejects.toThrow();
  });

  it('removes a repository and nothing else', async () => {
    const repo = repositoryPath(dataDir, 11);
    await createBareRepository(repo, 'main');
    await removeRepository(repo);
    expect(await pathExists(repo)).toBe(false);
    await removeRepository(repo); // already gone: no error
    await expect(removeRepository(dataDir)).rejects.toThrow(/not a repository path/);
  });
});
