import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * Registers @fastify/multipart without a working `request.formData()`, which
 * nothing here uses. The plugin offers it when `globalThis.FormData` exists,
 * and merely looking loads Node's whole fetch implementation (undici): about
 * 50 ms of a start. So the name is hidden while the plugin registers, and
 * Node's lazy accessor is put back untouched (FormData still loads on demand).
 */
export async function registerMultipart(http: FastifyInstance, options: Parameters<typeof fastifyMultipart>[1]): Promise<void> {
  const formData = Object.getOwnPropertyDescriptor(globalThis, 'FormData');
  Object.defineProperty(globalThis, 'FormData', { value: undefined, configurable: true, writable: true });
  try {
    await http.register(fastifyMultipart, options);
  } finally {
    if (formData) Object.defineProperty(globalThis, 'FormData', formData);
    else delete (globalThis as { FormData?: unknown }).FormData;
  }
}
