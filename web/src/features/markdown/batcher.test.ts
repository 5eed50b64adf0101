import { describe, expect, it } from 'vitest';
import { createBatcher, splitBatches } from './batcher';

/** A batcher whose flushes run when the test says, and which records what it sent. */
function harness(options: { maxTexts?: number; maxBytes?: number; fail?: boolean } = {}) {
  const sent: { group: string; texts: string[] }[] = [];
  let flush: (() => void) | null = null;
  const batcher = createBatcher({
    maxTexts: options.maxTexts ?? 100,
    maxBytes: options.maxBytes ?? 1_000_000,
    schedule: (run) => void (flush = run),
    send: async (group, texts) => {
      sent.push({ group, texts });
      if (options.fail) throw new Error('500');
      return texts.map((text) => `<p>${group}:${text}</p>`);
    },
  });
  return { batcher, sent, flush: () => flush?.() };
}

describe('markdown batcher', () => {
  it('sends every text asked before the flush in one request per project, each once, answers in order', async () => {
    const { batcher, sent, flush } = harness();
    const asked = [batcher.load('1', 'a'), batcher.load('1', 'b'), batcher.load('2', 'a'), batcher.load('1', 'a')];
    expect(sent).toEqual([]);
    flush();
    expect(await Promise.all(asked)).toEqual(['<p>1:a</p>', '<p>1:b</p>', '<p>2:a</p>', '<p>1:a</p>']);
    expect(sent).toEqual([
      { group: '1', texts: ['a', 'b'] },
      { group: '2', texts: ['a'] },
    ]);
  });

  it('starts a new batch for texts asked after a flush', async () => {
    const { batcher, sent, flush } = harness();
    const first = batcher.load('1', 'a');
    flush();
    const second = batcher.load('1', 'b');
    flush();
    await Promise.all([first, second]);
    expect(sent.map((batch) => batch.texts)).toEqual([['a'], ['b']]);
  });

  it('keeps within the limits of texts and bytes per batch', async () => {
    const { batcher, sent, flush } = harness({ maxTexts: 2, maxBytes: 1_000_000 });
    const asked = ['a', 'b', 'c'].map((text) => batcher.load('1', text));
    flush();
    await Promise.all(asked);
    expect(sent.map((batch) => batch.texts)).toEqual([['a', 'b'], ['c']]);
    expect(splitBatches(['aaaa', 'bb', 'cc', 'é'], 10, 4)).toEqual([['aaaa'], ['bb', 'cc'], ['é']]);
    expect(splitBatches(['aaaaaa', 'b'], 10, 4)).toEqual([['aaaaaa'], ['b']]);
  });

  it('rejects every text of a failed batch, so each body falls back to its source text', async () => {
    const { batcher, flush } = harness({ fail: true });
    const asked = [batcher.load('1', 'a'), batcher.load('1', 'b')];
    flush();
    for (const result of await Promise.allSettled(asked)) expect(result.status).toBe('rejected');
  });
});
