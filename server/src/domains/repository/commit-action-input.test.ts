import { describe, expect, it } from 'vitest';
import { parseCommitActions } from './commit-action-input.js';

describe('parseCommitActions', () => {
  it('parses every action kind, decoding base64 content', () => {
    const parsed = parseCommitActions([
      { action: 'create', file_path: 'a.txt', content: 'hello' },
      { action: 'update', file_path: 'b.bin', content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64', last_commit_id: 'abc' },
      { action: 'move', file_path: 'c2.txt', previous_path: 'c.txt', last_commit_id: 'def' },
      { action: 'delete', file_path: 'd.txt' },
      { action: 'chmod', file_path: 'e.sh', execute_filemode: 'true' },
    ]);
    expect(parsed.actions.map((a) => a.action)).toEqual(['create', 'update', 'move', 'delete', 'chmod']);
    expect(parsed.actions[0]!.content?.toString()).toBe('hello');
    expect([...parsed.actions[1]!.content!]).toEqual([0, 1, 2]);
    expect(parsed.actions[2]!.previous_path).toBe('c.txt');
    expect(parsed.actions[4]!.execute_filemode).toBe(true);
    expect(parsed.expectations).toEqual([
      { path: 'b.bin', lastCommitId: 'abc' },
      { path: 'c.txt', lastCommitId: 'def' },
    ]);
  });

  it('accepts index-keyed objects (actions[0][action]=…) and JSON strings', () => {
    expect(parseCommitActions({ 0: { action: 'delete', file_path: 'x' } }).actions).toHaveLength(1);
    expect(parseCommitActions(JSON.stringify([{ action: 'delete', file_path: 'x' }])).actions).toHaveLength(1);
  });

  it.each([
    [undefined, '400 Bad request - actions is required'],
    [[], '400 Bad request - actions is required'],
    [[{ file_path: 'a' }], '400 Bad request - actions[0][action] is required'],
    [[{ action: 'create' }], '400 Bad request - actions[0][file_path] is required'],
    [[{ action: 'rename', file_path: 'a' }], '400 Bad request - actions[0][action] must be one of: create, update, move, delete, chmod'],
    [[{ action: 'create', file_path: 'a', encoding: 'hex' }], '400 Bad request - actions[0][encoding] must be text or base64'],
    [[{ action: 'delete', file_path: 'a' }, { action: 'update', file_path: 'b' }], '400 Bad request - actions[1][content] is required for update action'],
    [[{ action: 'move', file_path: 'b' }], '400 Bad request - actions[0][previous_path] is required for move action'],
    [[{ action: 'chmod', file_path: 'b' }], '400 Bad request - actions[0][execute_filemode] is required for chmod action'],
    [[{ action: 'chmod', file_path: 'b', execute_filemode: 'yes please' }], '400 Bad request - actions[0][execute_filemode] must be a boolean'],
    [[{ action: 'create', file_path: 'a', content: '!!!', encoding: 'base64' }], '400 (Bad request) "actions[0][content]" is not valid base64'],
  ])('%j → %s', (raw, message) => {
    expect(() => parseCommitActions(raw)).toThrow(message);
  });
});
