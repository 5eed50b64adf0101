import { describe, expect, it } from 'vitest';
import { dockerRunArgs, dockerServiceArgs, isClientVariable, serviceAlias, serviceAliases, serviceEnvironment, splitServiceEnvironment } from './docker-command.js';

describe('docker command lines', () => {
  it('runs the script in the image with the job directory mounted and variables passed by name', () => {
    expect(dockerRunArgs({ jobId: 9, image: 'node:22', workDir: '/b/9/p', tmpDir: '/b/9/p.tmp', variableNames: ['CI', 'SECRET'], scriptPath: '/b/9/p.tmp/script.sh' })).toEqual([
      'run', '--rm', '--name=tributary-job-9-build', '--network=tributary-job-9',
      '--volume=/b/9/p:/b/9/p', '--volume=/b/9/p.tmp:/b/9/p.tmp', '--workdir=/b/9/p',
      '--env=CI', '--env=SECRET', '--entrypoint=', '--', 'node:22', 'sh', '-c',
      'if command -v bash >/dev/null 2>&1; then exec bash "$0"; else exec sh "$0"; fi', '/b/9/p.tmp/script.sh',
    ]);
  });

  it('starts services on the job network under their alias', () => {
    expect(serviceAlias('registry.example.com/group/postgres:16')).toBe('registry.example.com__group__postgres');
    expect(dockerServiceArgs(9, { name: 'postgres:16' }, 0)).toEqual(['run', '--detach', '--rm', '--name=tributary-job-9-service-0', '--network=tributary-job-9', '--network-alias=postgres', '--', 'postgres:16']);
    expect(dockerServiceArgs(9, { name: 'redis', alias: 'cache' }, 1)).toEqual(['run', '--detach', '--rm', '--name=tributary-job-9-service-1', '--network=tributary-job-9', '--network-alias=redis', '--network-alias=cache', '--', 'redis']);
  });

  it('gives a service gitlab-runner’s host names, its entrypoint and its command', () => {
    expect(serviceAliases({ name: 'tutum/wordpress:latest', alias: 'db, wp' })).toEqual(['tutum__wordpress', 'tutum-wordpress', 'db', 'wp']);
    expect(dockerServiceArgs(9, { name: 'postgres:16', alias: 'db,pg', entrypoint: ['docker-entrypoint.sh', '-v'], command: ['postgres', '-c', 'fsync=off'] }, 0)).toEqual([
      'run', '--detach', '--rm', '--name=tributary-job-9-service-0', '--network=tributary-job-9',
      '--network-alias=postgres', '--network-alias=db', '--network-alias=pg', '--entrypoint=docker-entrypoint.sh',
      '--', 'postgres:16', '-v', 'postgres', '-c', 'fsync=off',
    ]);
  });

  it('passes a service’s variables by name (values never on the command line) and the client’s own names in an env file', () => {
    expect(dockerServiceArgs(9, { name: 'postgres:16', alias: 'db' }, 0, ['POSTGRES_DB', 'POSTGRES_PASSWORD', 'DOCKER_HOST'], '/b/9/p.tmp/service-0.env')).toEqual([
      'run', '--detach', '--rm', '--name=tributary-job-9-service-0', '--network=tributary-job-9', '--network-alias=postgres', '--network-alias=db',
      '--env=POSTGRES_DB', '--env=POSTGRES_PASSWORD', '--env-file=/b/9/p.tmp/service-0.env', '--', 'postgres:16',
    ]);
  });

  // Every value from the job sits inside one `--option=value` argument or after `--`, so docker reads none as an option.
  it.each([
    ['an alias', { name: 'redis', alias: '--privileged' }, ['--network-alias=--privileged']],
    ['an entrypoint', { name: 'redis', entrypoint: ['--privileged', '-v'] }, ['--entrypoint=--privileged']],
    ['an image name', { name: '--privileged' }, ['--', '--privileged']],
    ['a command', { name: 'redis', command: ['--volume=/:/host'] }, ['--', 'redis', '--volume=/:/host']],
  ])('never lets %s become a docker option', (_what, service, expected) => {
    const args = dockerServiceArgs(3, service, 0);
    const separator = args.indexOf('--');
    expect(separator).toBeGreaterThan(0);
    // before `--`, every argument is one docker option with its value attached
    expect(args.slice(0, 3)).toEqual(['run', '--detach', '--rm']);
    expect(args.slice(3, separator).every((arg) => /^--[a-z-]+=/.test(arg))).toBe(true);
    expect(args.join('\u0000')).toContain(expected.join('\u0000'));
    expect(args.slice(0, separator)).not.toContain('--privileged');
  });

  it('refuses variable names that are not shell names (no `--env=-x` or `--env=A=b`)', () => {
    const args = dockerServiceArgs(3, { name: 'redis' }, 0, ['OK', '-x', 'A=b', '1ABC', 'WITH SPACE']);
    expect(args.filter((arg) => arg.startsWith('--env'))).toEqual(['--env=OK']);
    expect(dockerRunArgs({ jobId: 3, image: 'alpine', workDir: '/w', tmpDir: '/t', variableNames: ['CI', '--rm'], scriptPath: '/t/s.sh' }).filter((arg) => arg.startsWith('--env'))).toEqual(['--env=CI']);
  });
});

describe('service environment (gitlab-runner’s getServiceVariables)', () => {
  const job = [
    { key: 'CI_PROJECT_NAME', value: 'app', public: true },
    { key: 'DB_NAME', value: 'app_test', public: true },
    { key: 'SECRET', value: 's3cr3t', public: false, masked: true },
    { key: 'CONFIG', value: '/tmp/CONFIG', public: true, file: true },
  ];

  it('gives a service the job’s public variables, then its own, expanded with the job’s', () => {
    expect(serviceEnvironment(job, [{ key: 'POSTGRES_DB', value: '$DB_NAME' }, { key: 'GREETING', value: 'hello ${CI_PROJECT_NAME}' }, { key: 'DB_NAME', value: 'override' }])).toEqual({
      CI_PROJECT_NAME: 'app',
      DB_NAME: 'override',
      POSTGRES_DB: 'override', // later values win in the expansion, as gitlab-runner's
      GREETING: 'hello app',
    });
  });

  it('keeps out the job’s private and file variables, and names that are not shell names', () => {
    const env = serviceEnvironment(job, [{ key: 'BAD-NAME', value: 'x' }, { key: 'LEAK', value: '$SECRET' }]);
    expect(env).not.toHaveProperty('SECRET');
    expect(env).not.toHaveProperty('CONFIG');
    expect(env).not.toHaveProperty('BAD-NAME');
    expect(env.LEAK).toBe('');
  });

  it('keeps the docker client’s own names out of its environment: they go to the env file, unless they hold a line break', () => {
    expect(isClientVariable('DOCKER_HOST')).toBe(true);
    expect(isClientVariable('POSTGRES_DB')).toBe(false);
    expect(splitServiceEnvironment({ POSTGRES_DB: 'a\nb', PATH: '/opt/bin', DOCKER_HOST: 'tcp://x', LD_PRELOAD: 'x\ny' })).toEqual({
      clientEnv: { POSTGRES_DB: 'a\nb' },
      fileLines: ['PATH=/opt/bin', 'DOCKER_HOST=tcp://x'],
      skipped: ['LD_PRELOAD'],
    });
  });
});
