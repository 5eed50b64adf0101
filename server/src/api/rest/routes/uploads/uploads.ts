import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, uploadAlt, uploadMarkdown, uploadUrl } from '../../../../domains/uploads/upload-rules.js';
import type { RestContext } from '../../context.js';
import { Any, Input, NamespacedRef, Optional, routes } from '../../input/route-kit.js';
import { uploadedFile } from './multipart-files.js';

/**
 * POST /projects/:id/uploads (doc/api/project_markdown_uploads.md): a multipart `file`,
 * answered with GitLab's entity. The multipart limit for this route is one byte over the
 * upload limit, so a larger file stops streaming at once and answers 413. A request without
 * the file is the upload service's 400.
 */
export function uploadRoutes(app: FastifyInstance, ctx: RestContext<'uploads'>): void {
  routes(app).post(
    '/projects/:id/uploads',
    Input({ id: NamespacedRef(), file: Optional(Any({ description: 'the file (multipart)' })) }),
    async ({ id }, request, reply) => {
      const { project, upload } = await ctx.services.uploads.upload(request.actor, id, uploadedFile(request, 'file'));
      const url = uploadUrl(upload.secret, upload.filename);
      return reply.status(201).send({
        id: upload.id,
        alt: uploadAlt(upload.filename),
        url,
        full_path: `/-/project/${project.id}${url}`,
        markdown: uploadMarkdown(upload.secret, upload.filename),
      });
    },
    { config: { multipartOptions: { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } } } },
  );
}
