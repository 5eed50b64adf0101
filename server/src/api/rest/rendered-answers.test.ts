import { describe, expect, it } from 'vitest';
import { actorFor } from '../../auth/actor.js';
import type { User } from '../../domains/users/user.js';
import { callerKey, MAX_KEPT_ANSWER_LENGTH, renderedAnswers } from './rendered-answers.js';

function counting(answer: (n: number) => string) {
  let generation = 0;
  let renders = 0;
  const watch = { generation: () => generation };
  const render = async (id: number) => {
    renders += 1;
    return answer(id);
  };
  return { watch, render, renders: () => renders, write: () => (generation += 1) };
}

describe('renderedAnswers', () => {
  it('renders once per key until a watched table is written', async () => {
    const fx = counting((id) => `{"id":${id}}`);
    const answers = renderedAnswers(fx.watch, fx.render, (id) => String(id));
    expect(await answers(1)).toBe('{"id":1}');
    expect(await answers(1)).toBe('{"id":1}');
    expect(await answers(2)).toBe('{"id":2}');
    expect(fx.renders()).toBe(2);
    fx.write();
    await answers(1);
    expect(fx.renders()).toBe(3);
  });

  it('answers but does not keep an answer longer than the limit', async () => {
    const fx = counting(() => 'x'.repeat(MAX_KEPT_ANSWER_LENGTH + 1));
    const answers = renderedAnswers(fx.watch, fx.render, (id) => String(id));
    await answers(1);
    await answers(1);
    expect(fx.renders()).toBe(2);
  });

  it('keeps at most maxEntries answers', async () => {
    const fx = counting((id) => String(id));
    const answers = renderedAnswers(fx.watch, fx.render, (id) => String(id), { maxEntries: 2 });
    for (const id of [1, 2, 3, 1]) await answers(id);
    expect(fx.renders()).toBe(4); // 1 was the oldest when 3 came
  });

  it('renders every call without a watch', async () => {
    const fx = counting((id) => String(id));
    const answers = renderedAnswers(undefined, fx.render, (id) => String(id));
    await answers(1);
    await answers(1);
    expect(fx.renders()).toBe(2);
  });
});

describe('callerKey', () => {
  const user = { id: 7, is_admin: false } as User;
  it('tells apart users, administrators, sessions, token scopes and job tokens\' projects', () => {
    const keys = [
      callerKey(actorFor(null, 'anonymous')),
      callerKey(actorFor(user, 'session')),
      callerKey(actorFor({ ...user, is_admin: true }, 'session')),
      callerKey(actorFor(user, 'token', ['read_api'])),
      callerKey(actorFor(user, 'token', ['api'])),
      callerKey(actorFor({ ...user, id: 8 }, 'session')),
      // the same user's CI job tokens in two projects: each acts for the user only in its own project
      callerKey({ ...actorFor(user, 'token', ['read_api']), jobProjectId: 1 }),
      callerKey({ ...actorFor(user, 'token', ['read_api']), jobProjectId: 2 }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});
