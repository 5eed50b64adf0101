import { Readable } from 'node:stream';
import { assertObjectKey, assertObjectPrefix, ObjectNotFoundError, type ObjectInfo, type ObjectStore } from './object-store.js';
import { sha256Hex, signRequest, uriEncode } from './sigv4.js';

export interface S3Config {
  /** `https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`, … */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `endpoint/bucket/key` (MinIO and most S3-compatible servers) instead of `bucket.endpoint/key` */
  forcePathStyle: boolean;
}

/** Streams larger than this go up in parts of this size (S3's multipart upload; parts are at least 5 MiB). */
export const S3_PART_SIZE = 8 * 1024 * 1024;

export class S3RequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`S3 ${status} ${code}: ${message}`);
  }
}

const decodeXml = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, entity: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
    if (named[entity.toLowerCase()]) return named[entity.toLowerCase()]!;
    return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
  });
const tag = (xml: string, name: string) => {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? decodeXml(match[1]!) : undefined;
};

/** `length` bytes (all when undefined) of a stream after skipping `skip` bytes. */
async function* slice(source: Readable, skip: number, length: number | undefined): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length ?? Infinity;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    let piece = chunk;
    if (toSkip > 0) {
      const dropped = Math.min(toSkip, piece.length);
      piece = piece.subarray(dropped);
      toSkip -= dropped;
    }
    if (piece.length === 0) continue;
    if (piece.length >= left) {
      yield piece.subarray(0, left);
      source.destroy();
      return;
    }
    left -= piece.length;
    yield piece;
  }
}

/**
 * S3-compatible object storage through its REST API, signed with AWS Signature Version 4 by a
 * small client of our own (the AWS SDK's S3 client would add dozens of packages for six calls).
 * Puts of streams larger than one part use a multipart upload, so memory stays bounded.
 */
export function createS3ObjectStore(config: S3Config, fetchImpl: typeof fetch = fetch): ObjectStore {
  const endpoint = new URL(config.endpoint);
  const credentials = { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, region: config.region };

  function urlFor(key: string, query: Record<string, string> = {}): URL {
    const path = uriEncode(key, true);
    const url = config.forcePathStyle
      ? new URL(`${endpoint.protocol}//${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/${uriEncode(config.bucket, false)}/${path}`)
      : new URL(`${endpoint.protocol}//${config.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/${path}`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url;
  }

  async function send(method: string, url: URL, options: { body?: Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
    const body = options.body;
    const headers = signRequest({ method, url, headers: { ...options.headers }, payloadHash: sha256Hex(body ?? Buffer.alloc(0)) }, credentials);
    delete headers.host;
    return fetchImpl(url, { method, headers, body: body ? new Uint8Array(body) : undefined });
  }

  async function failure(response: Response): Promise<S3RequestError> {
    const text = await response.text().catch(() => '');
    return new S3RequestError(response.status, tag(text, 'Code') ?? response.statusText, tag(text, 'Message') ?? '');
  }

  async function expectOk(response: Response): Promise<Response> {
    if (!response.ok) throw await failure(response);
    return response;
  }

  /** Reads up to `size` bytes from the stream's iterator; fewer means the stream ended. */
  async function readPart(iterator: AsyncIterator<Buffer | string>, carry: { rest: Buffer }, size: number): Promise<Buffer> {
    const parts: Buffer[] = [carry.rest];
    let length = carry.rest.length;
    while (length < size) {
      const next = await iterator.next();
      if (next.done) break;
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      parts.push(chunk);
      length += chunk.length;
    }
    const all = Buffer.concat(parts);
    carry.rest = all.subarray(size);
    return all.subarray(0, size);
  }

  async function putStream(key: string, body: Readable): Promise<void> {
    const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
    const carry = { rest: Buffer.alloc(0) };
    const first = await readPart(iterator, carry, S3_PART_SIZE);
    const second = first.length === S3_PART_SIZE ? await readPart(iterator, carry, S3_PART_SIZE) : Buffer.alloc(0);
    if (second.length === 0) {
      await expectOk(await send('PUT', urlFor(key), { body: first }));
      return;
    }
    const created = await expectOk(await send('POST', urlFor(key, { uploads: '' })));
    const uploadId = tag(await created.text(), 'UploadId');
    if (!uploadId) throw new S3RequestError(created.status, 'NoUploadId', 'CreateMultipartUpload answered without an UploadId');
    const etags: string[] = [];
    try {
      let part: Buffer = first;
      let following: Buffer = second;
      for (let number = 1; part.length > 0; number++) {
        const uploaded = await expectOk(await send('PUT', urlFor(key, { partNumber: String(number), uploadId }), { body: part }));
        etags.push(uploaded.headers.get('etag') ?? '');
        part = following;
        following = part.length === S3_PART_SIZE ? await readPart(iterator, carry, S3_PART_SIZE) : Buffer.alloc(0);
      }
      const manifest = `<CompleteMultipartUpload>${etags.map((etag, index) => `<Part><PartNumber>${index + 1}</PartNumber><ETag>${etag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
      const completed = await expectOk(await send('POST', urlFor(key, { uploadId }), { body: Buffer.from(manifest), headers: { 'content-type': 'application/xml' } }));
      // S3 may answer 200 with an error document when completing fails late.
      const text = await completed.text();
      if (text.includes('<Error>')) throw new S3RequestError(completed.status, tag(text, 'Code') ?? 'Error', tag(text, 'Message') ?? '');
    } catch (error) {
      await send('DELETE', urlFor(key, { uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async function list(prefix: string): Promise<ObjectInfo[]> {
    assertObjectPrefix(prefix);
    const out: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { 'list-type': '2', prefix };
      if (token) query['continuation-token'] = token;
      const url = urlFor('', query);
      const response = await expectOk(await send('GET', url));
      const xml = await response.text();
      for (const match of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        out.push({ key: tag(match[1]!, 'Key')!, size: Number(tag(match[1]!, 'Size') ?? 0) });
      }
      token = tag(xml, 'IsTruncated') === 'true' ? tag(xml, 'NextContinuationToken') : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  return {
    kind: 's3',

    async put(key, body) {
      assertObjectKey(key);
      if (Buffer.isBuffer(body)) await expectOk(await send('PUT', urlFor(key), { body }));
      else await putStream(key, body);
    },

    async get(key, range) {
      assertObjectKey(key);
      if (range?.length === 0) return Readable.from([]);
      const headers: Record<string, string> = {};
      if (range) headers.range = `bytes=${range.offset}-${range.length !== undefined ? range.offset + range.length - 1 : ''}`;
      const response = await send('GET', urlFor(key), { headers });
      if (response.status === 404) {
        await response.body?.cancel();
        throw new ObjectNotFoundError(key);
      }
      // a range starting at or past the end: nothing to read, as the filesystem store answers
      if (response.status === 416) {
        await response.body?.cancel();
        return Readable.from([]);
      }
      await expectOk(response);
      const body = response.body ? Readable.fromWeb(response.body as never) : Readable.from([]);
      if (!range) return body;
      // A server may ignore a range or widen it (HTTP allows the first; s3rver does the second for
      // `bytes=0-0`): cut what came to what was asked, from where Content-Range says it starts.
      const served = /^bytes (\d+)-(\d+)\//.exec(response.headers.get('content-range') ?? '');
      const servedStart = response.status === 206 && served ? Number(served[1]) : 0;
      const servedLength = response.status === 206 && served ? Number(served[2]) - servedStart + 1 : Infinity;
      if (servedStart === range.offset && (range.length === undefined || servedLength === range.length)) return body;
      return Readable.from(slice(body, range.offset - servedStart, range.length));
    },

    async head(key) {
      assertObjectKey(key);
      const response = await send('HEAD', urlFor(key));
      if (response.status === 404) return null;
      await expectOk(response);
      return { size: Number(response.headers.get('content-length') ?? 0) };
    },

    async delete(key) {
      assertObjectKey(key);
      const response = await send('DELETE', urlFor(key));
      if (response.status !== 404) await expectOk(response);
    },

    async deletePrefix(prefix) {
      const objects = await list(prefix);
      for (const object of objects) {
        const response = await send('DELETE', urlFor(object.key));
        if (response.status !== 404) await expectOk(response);
      }
      return objects.length;
    },

    list,
  };
}
