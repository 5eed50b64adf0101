import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Services } from '../../app.js';
import type { WriteWatch } from '../../platform/db/write-watch.js';
import type { ProjectUrls } from './entities/projects.js';

/**
 * What every REST route module receives from the composition root. A module names the services
 * it uses (`RestContext<'pipelines' | 'projects'>`), so its dependencies read from its signature.
 */
export interface RestContext<K extends keyof Services = keyof Services> {
  services: Pick<Services, K>;
  authorizer: Authorizer;
  urls: ProjectUrls;
  externalUrl: string;
  /** moves when a watched table is written: whole answers are kept until it does (rendered-answers.ts) */
  watch?: Pick<WriteWatch, 'generation'>;
}

export function signedIn(request: FastifyRequest): Actor & { user: NonNullable<Actor['user']> } {
  if (!request.actor.user) throw new UnauthorizedError();
  return request.actor as Actor & { user: NonNullable<Actor['user']> };
}

export function createUrls(externalUrl: string): ProjectUrls {
  return {
    web: (path: string) => `${externalUrl}/${path}`,
    git: (fullPath: string) => `${externalUrl}/${fullPath}.git`,
  };
}
