import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertGitScope } from '../../auth/authorizer.js';
import type { Actor } from '../../auth/actor.js';
import { ANONYMOUS } from '../../auth/actor.js';
import { InsufficientScopeError, nullIfNotFound, TooManyRequestsError } from '../../platform/errors.js';
import { git } from '../../git/command.js';
import { createCapabilityAdvertisementCache, isProtocolV2 } from '../../git/capability-advertisement.js';
import type { Project } from '../../domains/projects/project.js';
import type { RestContext } from '../rest/context.js';
import { createGitAuthenticator, parseBasicAuth } from './basic-auth.js';
import type { HookSessions } from './hook-sessions.js';
import { serviceAdvertisementHeader } from './pkt-line.js';
import { HOOKS_DIR } from '../../platform/paths.js';

/** A clone of a large repository may stream for a long time. */
const GIT_RPC_TIMEOUT_MS = 60 * 60 * 1000;

type Service = 'git-upload-pack' | 'git-receive-pack';

export const GIT_HTTP_MESSAGES = {
  accessDenied: 'HTTP Basic: Access denied',
  notFound: "The project you were looking for could not be found or you don't have permission to view it.",
  downloadDenied: 'You are not allowed to download code from this project.',
  pushDenied: 'You are not allowed to push code to this project.',
} as const;

/**
 * GitLab's Gitlab::Checks::ContainerMoved message, shown after a push to a project's old path
 * (the push itself goes to the project). Pure.
 */
export function projectMovedMessage(oldPath: string, newPath: string, newUrl: string): string {
  return `Project '${oldPath}' was moved to '${newPath}'.\n\nPlease update your Git remote:\n\n  git remote set-url origin ${newUrl}`;
}

/** `/group/sub/project.git/info/refs` → { fullPath: 'group/sub/project', action: 'info/refs' }. Pure. */
export function parseGitUrl(url: string): { fullPath: string; action: 'info/refs' | Service } | undefined {
  const path = url.split('?')[0]!;
  const match = /^\/(.+)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/.exec(path);
  if (!match) return undefined;
  let fullPath: string;
  try {
    fullPath = decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
  if (fullPath.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return { fullPath, action: match[2] as 'info/refs' | Service };
}

/**
 * `git clone http://host/group/project` (no `.git`) asks for
 * `/group/project/info/refs?service=…`; GitLab redirects that to the `.git`
 * URL and so do we. Returns the redirect target, or undefined. Pure.
 */
export function dotGitRedirect(url: string): string | undefined {
  const [path, query] = url.split('?') as [string, string | undefined];
  if (!query || !/(^|&)service=git-(upload|receive)-pack(&|$)/.test(query)) return undefined;
  const match = /^\/(.+)\/info\/refs$/.exec(path);
  if (!match || match[1]!.endsWith('.git') || match[1]!.includes('/-/')) return undefined;
  return `/${match[1]}.git/info/refs?${query}`;
}

class GitHttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface GitHttpDeps {
  hookSessions: HookSessions;
  internalSocket: string;
}

/**
 * Git smart HTTP (protocol v0, v1 and v2): `info/refs`, `git-upload-pack`
 * and `git-receive-pack` under `/<full/path>.git/`. Access goes through the
 * one permission function: fetch needs `download_code`, push `push_code`;
 * what the caller may not see is a 404 for signed-in users and a 401
 * challenge for anonymous ones (so git asks for credentials), whether or
 * not the project exists. Branch rules are enforced by the pre-receive hook.
 */
export function createGitHttpRoutes(deps: GitHttpDeps) {
  return function gitHttpRoutes(app: FastifyInstance, ctx: RestContext): void {
    const capabilities = createCapabilityAdvertisementCache({
      advertise: async (repo, protocol) =>
        (await git(repo).sub('upload-pack').flag('--stateless-rpc', '--advertise-refs').env({ GIT_PROTOCOL: protocol }).revisions(repo).run()).stdout,
    });
    const authenticateBasic = createGitAuthenticator({ tokens: ctx.services.tokens, passwords: ctx.services.passwords, jobTokens: (token) => ctx.services.runnerProtocol.jobTokenIdentity(token) });

    for (const type of ['application/x-git-upload-pack-request', 'application/x-git-receive-pack-request']) {
      app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
    }

    async function authorize(request: FastifyRequest, fullPath: string, service: Service): Promise<{ actor: Actor; project: Project }> {
      const credentials = parseBasicAuth(request.headers.authorization);
      let actor: Actor = { ...ANONYMOUS, accessCache: new Map() };
      if (credentials) {
        const authenticated = await authenticateBasic(credentials, request.ip);
        if (!authenticated) throw new GitHttpRefusal(401, GIT_HTTP_MESSAGES.accessDenied);
        actor = authenticated;
      }
      // Only "not found" is an answer here; any other failure (the database down) is a 500, never a 404.
      const project = await ctx.services.projects.find(actor, fullPath).catch(nullIfNotFound);
      if (!project) throw new GitHttpRefusal(actor.user ? 404 : 401, actor.user ? GIT_HTTP_MESSAGES.notFound : GIT_HTTP_MESSAGES.accessDenied);
      const abilities = await ctx.authorizer.abilities(actor, { project });
      if (service === 'git-upload-pack') {
        if (!abilities.has('download_code')) throw new GitHttpRefusal(actor.user ? 403 : 401, actor.user ? GIT_HTTP_MESSAGES.downloadDenied : GIT_HTTP_MESSAGES.accessDenied);
        assertGitScope(actor, 'fetch');
      } else {
        if (!actor.user) throw new GitHttpRefusal(401, GIT_HTTP_MESSAGES.accessDenied);
        // GitLab's any_branch_allows_collaboration?: a merge request allowing collaboration lets the target's
        // mergers in; the pre-receive hook then allows only that branch (checkBranchUpdate).
        const collaborating = !abilities.has('push_code') && (await ctx.services.collaboration.branchesFor(actor, project)).length > 0;
        if (!abilities.has('push_code') && !collaborating) throw new GitHttpRefusal(403, GIT_HTTP_MESSAGES.pushDenied);
        assertGitScope(actor, 'push');
      }
      return { actor, project };
    }

    function refuse(reply: FastifyReply, error: unknown): FastifyReply {
      if (error instanceof TooManyRequestsError) return reply.status(429).type('text/plain').send('Too many failed sign-in attempts. Try again later.\n');
      if (error instanceof InsufficientScopeError) return reply.status(403).type('text/plain').send('The provided token does not have the scope to do this.\n');
      if (!(error instanceof GitHttpRefusal)) throw error;
      if (error.status === 401) reply.header('www-authenticate', 'Basic realm="Tributary"');
      return reply.status(error.status).type('text/plain').send(`${error.message}\n`);
    }

    function protocolEnv(request: FastifyRequest): Record<string, string> {
      const protocol = request.headers['git-protocol'];
      return typeof protocol === 'string' && /^version=[0-2](:[\w.=-]+)*$/.test(protocol) ? { GIT_PROTOCOL: protocol } : {};
    }

    async function advertise(request: FastifyRequest, reply: FastifyReply, fullPath: string): Promise<FastifyReply> {
      const service = (request.query as Record<string, unknown>).service;
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
        return reply.status(403).type('text/plain').send('Dumb HTTP protocol is not supported. Use a git client with smart HTTP.\n');
      }
      const { project } = await authorize(request, fullPath, service);
      const repo = ctx.services.storage.pathFor(project.id);
      const protocol: string | undefined = protocolEnv(request).GIT_PROTOCOL;
      // A v2 upload-pack advertisement holds capabilities only, the same until the repository's config changes.
      const stdout =
        service === 'git-upload-pack' && isProtocolV2(protocol)
          ? await capabilities.get(repo, protocol)
          : (await git(repo).sub(service === 'git-upload-pack' ? 'upload-pack' : 'receive-pack').flag('--stateless-rpc', '--advertise-refs').env(protocolEnv(request)).revisions(repo).run()).stdout;
      return reply
        .header('content-type', `application/x-${service}-advertisement`)
        .header('cache-control', 'no-cache, max-age=0, must-revalidate')
        .send(Buffer.concat([Buffer.from(serviceAdvertisementHeader(service)), stdout]));
    }

    async function rpc(request: FastifyRequest, reply: FastifyReply, fullPath: string, service: Service): Promise<FastifyReply> {
      if (request.headers['content-type'] !== `application/x-${service}-request`) {
        return reply.status(415).type('text/plain').send('Unsupported Media Type\n');
      }
      const { actor, project } = await authorize(request, fullPath, service);
      const repo = ctx.services.storage.pathFor(project.id);
      let hook: { key: string; close(): void } | undefined;
      let command = git(repo);
      if (service === 'git-receive-pack') {
        // An old path (a renamed or moved project) still takes the push, and says where the project went.
        const moved = project.full_path.toLowerCase() !== fullPath.toLowerCase();
        const messages = moved ? [projectMovedMessage(fullPath, project.full_path, ctx.urls.git(project.full_path))] : [];
        hook = deps.hookSessions.open({ userId: actor.user!.id, projectId: project.id, messages });
        command = command.config('core.hooksPath', HOOKS_DIR);
        command.env({ TRIBUTARY_HOOK_KEY: hook.key, TRIBUTARY_HOOK_SOCKET: deps.internalSocket });
      }
      const child = command
        .sub(service === 'git-upload-pack' ? 'upload-pack' : 'receive-pack')
        .flag('--stateless-rpc')
        .env(protocolEnv(request))
        .timeout(GIT_RPC_TIMEOUT_MS)
        .revisions(repo)
        .spawnStream();

      let body = request.body as Readable;
      if (request.headers['content-encoding'] === 'gzip') body = body.pipe(createGunzip());
      body.on('error', () => child.kill('SIGTERM'));
      body.pipe(child.stdin!);
      child.stdin!.on('error', () => undefined);

      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': `application/x-${service}-result`, 'cache-control': 'no-cache, max-age=0, must-revalidate' });
      child.stdout!.pipe(reply.raw);
      const stderr: Buffer[] = [];
      child.stderr!.on('data', (chunk: Buffer) => stderr.length < 64 && stderr.push(chunk));
      reply.raw.on('close', () => child.exitCode === null && child.kill('SIGTERM'));
      await new Promise<void>((resolve) => child.on('close', () => resolve()));
      hook?.close();
      if (child.exitCode !== 0) request.log.warn({ service, project: project.id, code: child.exitCode, stderr: Buffer.concat(stderr).toString().slice(0, 2000) }, 'git rpc failed');
      return reply;
    }

    async function handle(request: FastifyRequest, reply: FastifyReply) {
      const target = parseGitUrl(request.url);
      if (!target) {
        const redirect = request.method === 'GET' ? dotGitRedirect(request.url) : undefined;
        return redirect ? reply.redirect(redirect, 301) : reply.callNotFound();
      }
      try {
        if (target.action === 'info/refs') {
          if (request.method !== 'GET') return reply.status(405).send({ message: '405 Method Not Allowed' });
          return await advertise(request, reply, target.fullPath);
        }
        if (request.method !== 'POST') return reply.status(405).send({ message: '405 Method Not Allowed' });
        return await rpc(request, reply, target.fullPath, target.action);
      } catch (error) {
        return refuse(reply, error);
      }
    }

    app.get('/*', handle);
    app.post('/*', handle);
  };
}

