import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Database } from '../../platform/db/database.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { avatarCheck, avatarFilename } from './avatar-rules.js';
import type { ProjectsRepository } from './projects.repository.js';
import type { ProjectsService } from './projects.service.js';

/**
 * A project's avatar: set by PUT /projects/:id with a multipart `avatar` (Maintainers, as every
 * project setting), served at the entity's avatar_url to those who may read the project.
 */
export function createProjectAvatarService(deps: {
  db: Pick<Database, 'transaction'>;
  projects: Pick<ProjectsService, 'find'>;
  rows: Pick<ProjectsRepository, 'saveAvatar' | 'readAvatar'>;
  authorizer: Pick<Authorizer, 'authorize'>;
}) {
  return {
    async set(actor: Actor, idOrPath: string | number, file: { filename: string; data: Buffer }): Promise<void> {
      const project = await deps.projects.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'admin_project', { project });
      const checked = avatarCheck(file.filename, file.data.length);
      if ('error' in checked) throw ValidationError.field('avatar', checked.error);
      await deps.db.transaction((tx) => deps.rows.saveAvatar(project.id, { filename: avatarFilename(file.filename), contentType: checked.contentType, data: file.data }, tx));
    },
    /** The avatar under the name the project's entity gives it; 404 for another name, no avatar, or a hidden project. */
    async open(actor: Actor, projectId: string, filename: string): Promise<{ contentType: string; data: Buffer }> {
      const project = await deps.projects.find(actor, /^\d{1,18}$/.test(projectId) ? projectId : '0');
      if (!project.avatar_filename || project.avatar_filename !== filename) throw new NotFoundError('Avatar');
      const avatar = await deps.rows.readAvatar(project.id);
      if (!avatar) throw new NotFoundError('Avatar');
      return { contentType: avatar.content_type, data: avatar.data };
    },
  };
}

export type ProjectAvatarService = ReturnType<typeof createProjectAvatarService>;
