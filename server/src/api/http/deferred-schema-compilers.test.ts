import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createDeferredSchemaCompilers } from './deferred-schema-compilers.js';

/** A route with a body schema and a response schema, under the deferred compilers or Fastify's own. */
async function appWith(deferred: boolean) {
  const compilers = createDeferredSchemaCompilers();
  const app = Fastify(deferred ? { schemaController: { compilersFactory: compilers.compilersFactory } } : {});
  app.post(
    '/things',
    {
      schema: {
        body: { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } } },
        response: { 200: { type: 'object', properties: { count: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } },
      },
    },
    async (request) => ({ ...(request.body as object), secret: 'never serialized' }),
  );
  await app.ready();
  return { app, compilers };
}

describe('deferred schema compilers', () => {
  it('compile nothing while the server starts, then each schema on its first use', async () => {
    const { app, compilers } = await appWith(true);
    expect(compilers.pending()).toBe(2);
    await app.inject({ method: 'POST', url: '/things', payload: { count: 1 } });
    expect(compilers.pending()).toBe(0);
    await app.close();
  });

  it('compileAll() compiles what is still pending', async () => {
    const { app, compilers } = await appWith(true);
    compilers.compileAll();
    expect(compilers.pending()).toBe(0);
    await app.close();
  });

  it.each([
    ['a valid body (coerced as Fastify does)', { count: '2', tags: 'one' }],
    ['a missing property', { tags: ['one'] }],
    ['a value out of range', { count: 0 }],
  ])('answer %s exactly as Fastify’s own compilers do', async (_, payload) => {
    const deferred = await appWith(true);
    const standard = await appWith(false);
    const [ours, theirs] = await Promise.all([deferred.app, standard.app].map((app) => app.inject({ method: 'POST', url: '/things', payload })));
    expect(ours!.statusCode).toBe(theirs!.statusCode);
    expect(ours!.json()).toEqual(theirs!.json());
    expect(ours!.body).not.toContain('never serialized');
    await Promise.all([deferred.app.close(), standard.app.close()]);
  });
});
