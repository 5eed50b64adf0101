import { describe, expect, it } from 'vitest';
import { parseTags, registerCommands, runnerName } from './runner-display';

describe('runner display helpers', () => {
  it.each([
    ['docker, linux', ['docker', 'linux']],
    ['docker linux  docker', ['docker', 'linux']],
    [' , ', []],
    ['', []],
  ])('parses tags %j', (text, tags) => {
    expect(parseTags(text)).toEqual(tags);
  });

  it('names a runner by its description, or #id', () => {
    expect(runnerName({ id: 4, description: 'box' })).toBe('box');
    expect(runnerName({ id: 4, description: '' })).toBe('#4');
    expect(runnerName({ id: 4, description: null })).toBe('#4');
  });

  it('builds both register commands with the URL and token', () => {
    expect(registerCommands('http://h:3000', 'glrt-x').map((c) => c.command)).toEqual([
      'gitlab-runner register --url http://h:3000 --token glrt-x',
      'npx tributary runner --url http://h:3000 --token glrt-x',
    ]);
  });
});
