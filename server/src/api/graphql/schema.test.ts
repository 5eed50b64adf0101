import { buildSchema, printSchema, validateSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildExecutableSchema, schema } from './schema.js';

describe('the GraphQL schema', () => {
  it('passes graphql’s SDL validation, which the server skips when it builds the schema', () => {
    expect(() => buildSchema(schema)).not.toThrow();
    expect(validateSchema(buildSchema(schema))).toEqual([]);
  });

  it('builds the same schema without the validation', () => {
    const built = buildExecutableSchema();
    expect(validateSchema(built)).toEqual([]);
    expect(printSchema(built)).toBe(printSchema(buildSchema(schema)));
  });
});
