import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { App } from '../app.js';
import type { Logger } from '../platform/logger.js';
import { registerErrorHandler } from '../api/rest/error-handler.js';
import { NotFoundError } from '../platform/errors.js';
import { personalAccessToken } from '../api/rest/entities/tokens.js';
import { actorFor } from '../auth/actor.js';

export interface CreateUserCommand {
  username: string;
  name?: string;
  email?: string;
  password: string;
  admin?: boolean;
}

export interface CreateTokenCommand {
  user: string;
  name: string;
  scopes: string[];
  expires_at?: string;
}

/** Routes that only the machine owner reaches: the socket file is 0600 in a 0700 folder. */
export type AdminRoutePlugin = (admin: FastifyInstance, app: App) => void;

/**
 * The CLI's commands, performed by the process that owns the embedded
 * database. `tributary user create` and `token create` send these when a
 * server is running, and call the same services directly when none is.
 */
export const adminCommands = {
  async createUser(app: Pick<App, 'services'>, command: CreateUserCommand) {
    const user = await app.services.users.create(null, {
      username: command.username,
      name: command.name ?? command.username,
      email: command.email ?? `${command.username}@localhost`,
      password: command.password,
      admin: command.admin === true,
    });
    return { id: user.id, username: user.username, name: user.name, email: user.email, is_admin: user.is_admin };
  },
  async createToken(app: Pick<App, 'services'>, command: CreateTokenCommand) {
    const user = await app.services.users.findByUsername(command.user);
    if (!user) throw new NotFoundError('User');
    const token = await app.services.tokens.create(null, user.id, { name: command.name, scopes: command.scopes, expires_at: command.expires_at ?? null });
    return { ...personalAccessToken(token), token: token.token };
  },
  /**
   * The local runner of `TRIBUTARY_LOCAL_RUNNER`: an instance runner created as the administrator
   * "root" would create it in the UI (POST /user/runners), so it is an ordinary runner that the
   * Runners settings list and that an administrator may pause or delete.
   */
  async createLocalRunner(app: Pick<App, 'services'>) {
    const root = await app.services.users.findByUsername('root');
    if (!root || !root.is_admin) throw new NotFoundError('User');
    return app.services.runners.create(actorFor(root, 'session'), { runner_type: 'instance_type', description: 'local runner (TRIBUTARY_LOCAL_RUNNER)', run_untagged: true });
  },
};

export async function buildAdminServer(deps: { app: App; logger: Logger; plugins: AdminRoutePlugin[] }): Promise<FastifyInstance> {
  const admin: FastifyInstance = Fastify({ loggerInstance: deps.logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
  admin.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: '404 Not Found' }));
  registerErrorHandler(admin);
  admin.post('/users', async (request, reply) => reply.status(201).send(await adminCommands.createUser(deps.app, request.body as CreateUserCommand)));
  admin.post('/tokens', async (request, reply) => reply.status(201).send(await adminCommands.createToken(deps.app, request.body as CreateTokenCommand)));
  for (const plugin of deps.plugins) plugin(admin, deps.app);
  return admin;
}
