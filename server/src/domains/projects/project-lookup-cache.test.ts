import { describe, expect, it } from 'vitest';
import type { Project } from './project.js';
import { CACHED_READ_MAX_AGE_MS } from '../../platform/db/cached-read.js';
import { cacheProjectLookups } from './project-lookup-cache.js';

type Viewed = Project & { viewer_access_level: number };

function row(id: number, level = 30): Viewed {
  return { id, full_path: `group/p${id}`, namespace_traversal_ids: [1], viewer_access_level: level } as unknown as Viewed;
}

function setup() {
  let generation = 0;
  let clock = 0;
  const calls: string[] = [];
  let answer: Viewed | undefined = row(1);
  let during: () => void = () => undefined;
  const repository = {
    async findForViewer(key: { id: number } | { fullPath: string }, userId: number | null) {
      calls.push(`${JSON.stringify(key)} ${userId}`);
      during();
      return answer && { ...answer, namespace_traversal_ids: [...answer.namespace_traversal_ids] };
    },
  };
  const cache = cacheProjectLookups(repository, { generation: () => generation }, () => clock);
  return {
    cache,
    calls,
    write: () => (generation += 1),
    advance: (ms: number) => (clock += ms),
    answer: (value: Viewed | undefined) => (answer = value),
    whileReading: (fn: () => void) => (during = fn),
  };
}

describe('cacheProjectLookups', () => {
  it('asks the database once per project and user until something is written', async () => {
    const t = setup();
    await t.cache.findForViewer({ id: 1 }, 7);
    await t.cache.findForViewer({ id: 1 }, 7);
    expect(t.calls).toHaveLength(1);
    await t.cache.findForViewer({ id: 1 }, 8);
    await t.cache.findForViewer({ id: 1 }, null);
    expect(t.calls).toHaveLength(3);
    t.write();
    await t.cache.findForViewer({ id: 1 }, 7);
    expect(t.calls).toHaveLength(4);
  });

  it('keys paths case-insensitively, as the lookup matches them', async () => {
    const t = setup();
    await t.cache.findForViewer({ fullPath: 'Group/P1' }, 7);
    await t.cache.findForViewer({ fullPath: 'group/p1' }, 7);
    expect(t.calls).toHaveLength(1);
  });

  it('never keeps an answer read while a write happened', async () => {
    const t = setup();
    t.whileReading(() => t.write());
    await t.cache.findForViewer({ id: 1 }, 7);
    t.whileReading(() => undefined);
    await t.cache.findForViewer({ id: 1 }, 7);
    expect(t.calls).toHaveLength(2);
  });

  it('does not keep not-found answers', async () => {
    const t = setup();
    t.answer(undefined);
    expect(await t.cache.findForViewer({ id: 2 }, 7)).toBeUndefined();
    t.answer(row(2));
    expect((await t.cache.findForViewer({ id: 2 }, 7))?.id).toBe(2);
  });

  it('asks again once an answer is older than the age limit', async () => {
    const t = setup();
    await t.cache.findForViewer({ id: 1 }, 7);
    t.advance(CACHED_READ_MAX_AGE_MS - 1);
    await t.cache.findForViewer({ id: 1 }, 7);
    expect(t.calls).toHaveLength(1);
    t.advance(1);
    await t.cache.findForViewer({ id: 1 }, 7);
    expect(t.calls).toHaveLength(2);
  });

  it('hands out copies: a caller changing its row does not change the next one', async () => {
    const t = setup();
    const first = (await t.cache.findForViewer({ id: 1 }, 7))!;
    first.viewer_access_level = 50;
    first.namespace_traversal_ids.push(99);
    const second = (await t.cache.findForViewer({ id: 1 }, 7))!;
    expect(second.viewer_access_level).toBe(30);
    expect(second.namespace_traversal_ids).toEqual([1]);
  });
});
