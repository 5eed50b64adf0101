import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerMultipart } from './multipart.js';

describe('registerMultipart', () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'FormData')!;
  afterEach(() => Object.defineProperty(globalThis, 'FormData', original));

  it('does not look at globalThis.FormData (which loads undici), and puts it back as it was', async () => {
    let reads = 0;
    const counting: PropertyDescriptor = {
      configurable: true,
      get: () => {
        reads++;
        return original.get ? original.get.call(globalThis) : original.value;
      },
    };
    Object.defineProperty(globalThis, 'FormData', counting);
    const app = Fastify();
    await registerMultipart(app, { attachFieldsToBody: 'keyValues' });
    await app.ready();
    expect(reads).toBe(0);
    expect(Object.getOwnPropertyDescriptor(globalThis, 'FormData')?.get).toBe(counting.get);
    await app.close();
  });

  it('still parses multipart bodies', async () => {
    const app = Fastify();
    await registerMultipart(app, { attachFieldsToBody: 'keyValues' });
    app.post('/echo', async (request) => request.body);
    const form = new FormData();
    form.append('name', 'value');
    const encoded = new Response(form);
    const response = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': encoded.headers.get('content-type')! }, payload: Buffer.from(await encoded.arrayBuffer()) });
    expect(response.json()).toEqual({ name: 'value' });
    await app.close();
  });
});
