import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles every route's JSON schemas while the server starts: building Ajv
 * (and compiling its meta-schema) alone is over 100 ms of a start, for the handful of
 * schemas our plugins bring (GraphQL's routes; the REST routes' declared inputs are read
 * by their own coercer, api/rest/input/, and are not Fastify schemas). These
 * compilers hand Fastify functions that compile on their first call instead, and
 * `compileAll()` compiles whatever is still pending once the server listens, so the
 * first request that needs one seldom pays for it. Same compilers and options as
 * Fastify's defaults, so validation behaves exactly as before.
 */
type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Serialize = (data: unknown) => string;
type BuildValidator = AjvCompiler.BuildCompilerFromPool;
type BuildSerializer = SerializerSelector.SerializerFactory;

export interface DeferredSchemaCompilers {
  /** for `Fastify({ schemaController: { compilersFactory } })` */
  compilersFactory: { buildValidator: BuildValidator; buildSerializer: BuildSerializer };
  /** compiles every schema not compiled yet (after listen: off the start's critical path) */
  compileAll(): void;
  /** schemas registered and not compiled yet (for tests) */
  pending(): number;
}

export function createDeferredSchemaCompilers(): DeferredSchemaCompilers {
  const buildDefaultValidator = AjvCompiler();
  const buildDefaultSerializer = SerializerSelector();
  const pending = new Set<() => void>();

  /** A function standing for `compile()`'s result, which it calls for on its first use. */
  function deferred<F extends (data: never) => unknown>(compile: () => F, wrap: (get: () => F) => F): F {
    let compiled: F | undefined;
    const get = () => {
      if (!compiled) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return wrap(get);
  }

  const buildValidator: BuildValidator = (externalSchemas, options) => {
    let compiler: ReturnType<BuildValidator> | undefined;
    const compilerOf = () => (compiler ??= buildDefaultValidator(externalSchemas, options));
    return (routeSchema) =>
      deferred(
        () => compilerOf()(routeSchema) as Validate,
        (get) => {
          // Fastify reads a failed validation's reasons from the function it was given.
          const validate: Validate = (data) => {
            const real = get();
            const result = real(data);
            validate.errors = real.errors;
            return result;
          };
          return validate;
        },
      ) as ReturnType<ReturnType<BuildValidator>>;
  };

  const buildSerializer: BuildSerializer = (externalSchemas, options) => {
    let compiler: ReturnType<BuildSerializer> | undefined;
    const compilerOf = () => (compiler ??= buildDefaultSerializer(externalSchemas, options));
    return (routeSchema) =>
      deferred(
        () => compilerOf()(routeSchema) as Serialize,
        (get) => (data) => get()(data),
      );
  };

  return {
    compilersFactory: { buildValidator, buildSerializer },
    compileAll() {
      for (const compile of [...pending]) compile();
    },
    pending: () => pending.size,
  };
}
