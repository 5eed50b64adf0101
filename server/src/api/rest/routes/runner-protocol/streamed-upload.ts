import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ValidationError } from '../../../../platform/errors.js';

/**
 * Reads a multipart upload as it arrives, never the whole of it in memory: the fields before the
 * wanted file part are collected, the file part's stream is handed to `store` (which consumes
 * it), and every other part is discarded. Resolves with what `store` returned; 400 GitLab's
 * "file" not given when there was no such part. When `store` fails (a size limit, a dead
 * store), the rest of the request is read and dropped, so the client receives the answer; when
 * the client goes away mid-upload, the file stream fails, so `store` drops what it wrote.
 */
export function readStreamedUpload<T>(
  raw: IncomingMessage,
  field: string,
  store: (file: { filename: string; stream: Readable }, fields: Record<string, string>) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const contentType = raw.headers['content-type'];
    if (!contentType || !contentType.toLowerCase().startsWith('multipart/form-data')) {
      reject(ValidationError.missing(field));
      return;
    }
    let parser: BusboyInstance;
    try {
      parser = new Busboy({ headers: { ...raw.headers, 'content-type': contentType }, limits: { files: 8, fields: 64, fieldSize: 64 * 1024, parts: 72 } });
    } catch {
      reject(new ValidationError('400 Bad request - invalid multipart body'));
      return;
    }
    const fields: Record<string, string> = {};
    let storing: Promise<T> | null = null;
    let current: Readable | null = null;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      // Drop what is left of the request so that the answer reaches the client.
      raw.unpipe(parser);
      raw.resume();
      reject(error);
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, filename) => {
      if (name !== field || storing) {
        stream.resume();
        return;
      }
      current = stream;
      storing = store({ filename: filename || 'artifacts.zip', stream }, { ...fields });
      storing.catch((error: unknown) => {
        stream.resume();
        fail(error);
      });
    });
    parser.on('error', () => fail(new ValidationError('400 Bad request - invalid multipart body')));
    parser.on('finish', () => {
      if (!storing) return fail(ValidationError.missing(field));
      storing.then(
        (value) => {
          if (settled) return;
          settled = true;
          resolve(value);
        },
        () => undefined,
      );
    });
    raw.on('error', fail);
    // A client that goes away mid-upload: the file being stored fails, so its partial object is dropped.
    raw.on('close', () => {
      if (raw.complete) return;
      current?.destroy(new Error('the upload was interrupted'));
      fail(new ValidationError('400 Bad request - the upload was interrupted'));
    });
    raw.pipe(parser);
  });
}
