import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';

/**
 * The multipart plugin runs with `attachFieldsToBody: 'keyValues'`, which leaves a file field
 * as its bytes and drops its file name. Uploads need the name: this `onFile` handler reads the
 * part as the plugin would and remembers the name and type per request and field.
 */
const names = new WeakMap<FastifyRequest, Map<string, { filename: string; mimetype: string }>>();

export async function rememberFileNames(this: FastifyRequest, part: MultipartFile): Promise<void> {
  await part.toBuffer();
  let fields = names.get(this);
  if (!fields) names.set(this, (fields = new Map()));
  fields.set(part.fieldname, { filename: part.filename, mimetype: part.mimetype });
}

/** A file field of a multipart request with its name and bytes; undefined when none was sent. */
export function uploadedFile(request: FastifyRequest, field: string): { filename: string; mimetype: string; data: Buffer } | undefined {
  const meta = names.get(request)?.get(field);
  const data = (request.body as Record<string, unknown> | undefined)?.[field];
  if (!meta || !Buffer.isBuffer(data)) return undefined;
  return { ...meta, data };
}
