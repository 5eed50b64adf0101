import type { FastifyInstance } from 'fastify';
import { MAX_UPLOAD_BYTES, uploadAlt, uploadMarkdown, uploadUrl } from '../../../../domains/uploads/upload-rules.js';
import { pathParam, type RestContext } from '../../context.js';
import { uploadedFile } from './multipart-files.js';

/**
 * POST /projects/:id/uploads (doc/api/project_markdown_uploads.md): a multipart `file`,
 * answered with GitLab's entity. The multipart limit for this route is one byte over the
 * upload limit, so a larger file stops streaming at once and answers 413.
 */
export function uploadRoutes(app: FastifyInstance, ctx: RestContext): void {
  app.post(
    '/projects/:id/uploads',
    { config: { multipartOptions: { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } } } },
    async (request, reply) => {
      const { project, upload } = await ctx.services.uploads.upload(request.actor, pathParam(request, 'id'), uploadedFile(request, 'file'));
      const url = uploadUrl(upload.secret, upload.filename);
      return reply.status(201).send({
        id: upload.id,
        alt: uploadAlt(upload.filename),
        url,
        full_path: `/-/project/${project.id}${url}`,
        markdown: uploadMarkdown(upload.secret, upload.filename),
      });
    },
  );
}
