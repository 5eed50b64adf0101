/**
 * Project uploads (GitLab's POST /projects/:id/uploads and the /uploads/<secret>/<name> files
 * that notes and descriptions link to). Writing needs what commenting needs (create_note);
 * reading needs read_project, and a project the caller may not read is a 404 like an upload
 * that does not exist.
 *
 * The bytes are stored at <root>/<project id>/<secret>: two values of our own, so no user input
 * ever becomes part of a path. The name is only stored and compared. Each file is written to a
 * temporary name and renamed, so a reader never sees half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { NotFoundError, PayloadTooLargeError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { Project } from '../projects/project.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { MAX_UPLOAD_BYTES, sanitizeFilename, UPLOAD_SECRET } from './upload-rules.js';
import type { Upload, UploadsRepository } from './uploads.repository.js';

export interface StoredUpload {
  project: Project;
  upload: Upload;
  /** the file on disk, already checked to lie inside the uploads root */
  path: string;
}

export function createUploadsService(deps: { uploads: UploadsRepository; projects: Pick<ProjectsService, 'find'>; authorizer: Authorizer; root: string; maxBytes?: number }) {
  const maxBytes = deps.maxBytes ?? MAX_UPLOAD_BYTES;
  const fileOf = (projectId: number, secret: string) => join(deps.root, String(projectId), secret);

  return {
    maxBytes,

    async upload(actor: Actor, idOrPath: string | number, file: { filename: string; data: Buffer } | undefined): Promise<{ project: Project; upload: Upload }> {
      if (!actor.user) throw new UnauthorizedError();
      const project = await deps.projects.find(actor, idOrPath);
      await deps.authorizer.authorize(actor, 'create_note', { project });
      if (!file) throw ValidationError.missing('file');
      if (file.data.length > maxBytes) throw new PayloadTooLargeError(`413 Request Entity Too Large: file is too large (maximum is ${maxBytes / 1024 / 1024} MB)`);
      const filename = sanitizeFilename(file.filename);
      const secret = randomBytes(16).toString('hex');
      const dir = join(deps.root, String(project.id));
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temporary = join(dir, `.${secret}.tmp`);
      await writeFile(temporary, file.data, { mode: 0o600 });
      await rename(temporary, fileOf(project.id, secret));
      const upload = await deps.uploads.insert({ projectId: project.id, secret, filename, size: file.data.length, uploadedById: actor.user.id });
      return { project, upload };
    },

    /** The upload named by a URL, for a caller who may read its project; 404 for anything else. */
    async open(actor: Actor, idOrPath: string | number, secret: string, filename: string): Promise<StoredUpload> {
      // Only a name the upload could have been given (no NUL, no separators) is looked up at all.
      if (!UPLOAD_SECRET.test(secret) || filename !== sanitizeFilename(filename)) throw new NotFoundError();
      let project: Project;
      try {
        project = await deps.projects.find(actor, idOrPath);
      } catch {
        throw new NotFoundError();
      }
      if (!(await deps.authorizer.can(actor, 'read_project', { project }))) throw new NotFoundError();
      const upload = await deps.uploads.find(project.id, secret, filename);
      if (!upload) throw new NotFoundError();
      // Belt and braces: the path is built from an id and a checked secret; still, verify after realpath.
      const path = await realpath(fileOf(project.id, secret)).catch(() => null);
      const root = await realpath(deps.root).catch(() => null);
      if (!path || !root || !path.startsWith(root + sep) || !(await stat(path)).isFile()) throw new NotFoundError();
      return { project, upload, path };
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
