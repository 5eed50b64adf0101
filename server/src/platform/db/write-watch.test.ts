import { describe, expect, it } from 'vitest';
import type { Database, QueryResult } from './database.js';
import { tablesWrittenBy, watchWrites } from './write-watch.js';

describe('tablesWrittenBy', () => {
  const written = tablesWrittenBy(['projects', 'project_members']);

  it.each([
    ['INSERT INTO projects (name) VALUES ($1)', true],
    ['update projects p SET archived = true WHERE p.id = $1', true],
    ['DELETE FROM project_members WHERE user_id = $1', true],
    ['TRUNCATE TABLE projects', true],
    ['WITH moved AS (UPDATE ONLY projects SET path = $1 RETURNING id) SELECT id FROM moved', true],
    ['INSERT INTO "projects" (name) VALUES ($1)', true],
    ['UPDATE public.projects SET archived = true', true],
    ['MERGE INTO projects p USING incoming i ON p.id = i.id WHEN MATCHED THEN DELETE', true],
    ['SELECT * FROM projects WHERE id = $1', false],
    ['UPDATE projects_statistics SET size = 1', false],
    ['INSERT INTO merge_requests (project_id) VALUES ($1)', false],
    ['DELETE FROM group_members WHERE user_id = $1', false],
  ])('%s → %s', (sql, expected) => {
    expect(written(sql).length > 0).toBe(expected);
  });

  it('names each watched table a statement writes, once', () => {
    expect(written('WITH a AS (DELETE FROM project_members WHERE user_id = $1) UPDATE projects SET x = 1; UPDATE projects SET y = 2')).toEqual(['project_members', 'projects']);
  });
});

function fakeDatabase(): Database & { notify(): void } {
  let listener: (payload: string) => void = () => undefined;
  const result: QueryResult<never> = { rows: [], rowCount: 0 };
  return {
    kind: 'pglite',
    sessionName: 'tributary:test',
    query: async () => result,
    transaction: async (fn) => fn({ query: async () => result }),
    listen: async (_channel, handler) => {
      listener = handler;
      return async () => undefined;
    },
    close: async () => undefined,
    notify: () => listener('projects'),
  };
}

describe('watchWrites', () => {
  it('moves after a write statement, not after a read', async () => {
    const { db, watch } = watchWrites(fakeDatabase(), ['projects'], 'channel');
    await db.query('SELECT 1 FROM projects');
    expect(watch.generation(['projects'])).toBe(0);
    await db.query('UPDATE projects SET name = $1', ['x']);
    expect(watch.generation(['projects'])).toBe(1);
  });

  it('moves only the counters of the tables written', async () => {
    const { db, watch } = watchWrites(fakeDatabase(), ['projects', 'notes'], 'channel');
    await db.query('INSERT INTO notes (body) VALUES ($1)', ['x']);
    expect(watch.generation(['projects'])).toBe(0);
    expect(watch.generation(['notes', 'projects'])).toBe(1);
  });

  it('moves once a transaction that wrote has ended, not while it runs', async () => {
    const { db, watch } = watchWrites(fakeDatabase(), ['projects'], 'channel');
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM projects WHERE id = $1', [1]);
      await tx.query('DELETE FROM projects WHERE id = $1', [2]);
      expect(watch.generation(['projects'])).toBe(0);
    });
    expect(watch.generation(['projects'])).toBe(1);
  });

  it('moves after a rolled-back transaction too (harmless: the next lookup asks the database)', async () => {
    const { db, watch } = watchWrites(fakeDatabase(), ['projects'], 'channel');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO projects (name) VALUES ($1)', ['x']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(watch.generation(['projects'])).toBe(1);
  });

  it('moves when the database announces a write on the channel', async () => {
    const base = fakeDatabase();
    const { watch } = watchWrites(base, ['projects'], 'channel');
    await watch.start();
    base.notify();
    expect(watch.generation(['projects'])).toBe(1);
  });
});
