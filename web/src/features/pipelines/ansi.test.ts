import { describe, expect, it } from 'vitest';
import { applySgr, extendedColour, initiallyCollapsed, parseAnsiLine, parseJobLog, visibleLines } from './ansi';

const E = '\u001b';

describe('applySgr', () => {
  it.each([
    [{}, [1, 31], { bold: true, fg: 1 }],
    [{ bold: true, fg: 1 }, [0], {}],
    [{ bold: true, fg: 1 }, [], {}],
    [{}, [92, 44], { fg: 10, bg: 4 }],
    [{ fg: 3, bg: 2 }, [39, 49], {}],
    [{}, [38, 5, 208], { fg: 208 }],
    [{}, [48, 2, 10, 20, 300], { bg: 'rgb(10, 20, 255)' }],
    [{ bold: true, italic: true, underline: true }, [22, 23, 24], {}],
  ])('%j + %j → %j', (style, params, expected) => {
    expect(applySgr(style, params)).toEqual(expected);
  });
});

describe('parseAnsiLine', () => {
  it('splits text into styled segments and carries the style on', () => {
    const { segments, style } = parseAnsiLine(`plain ${E}[32;1mgreen bold${E}[0m back ${E}[31mred`, {});
    expect(segments).toEqual([
      { text: 'plain ', style: {} },
      { text: 'green bold', style: { fg: 2, bold: true } },
      { text: ' back ', style: {} },
      { text: 'red', style: { fg: 1 } },
    ]);
    expect(style).toEqual({ fg: 1 });
  });

  it('keeps markup as text: the output is text, never HTML', () => {
    const { segments } = parseAnsiLine(`${E}[31m<img src=x onerror=alert(1)>&amp;`, {});
    expect(segments).toEqual([{ text: '<img src=x onerror=alert(1)>&amp;', style: { fg: 1 } }]);
  });

  it('drops erase and cursor sequences and lone escapes; a carriage return overwrites the line', () => {
    expect(parseAnsiLine(`${E}[0Kdone${E}[2A${E}`, {}).segments).toEqual([{ text: 'done', style: {} }]);
    expect(parseAnsiLine('10%\r50%\r100%', {}).segments).toEqual([{ text: '100%', style: {} }]);
    expect(parseAnsiLine('windows line\r', {}).segments).toEqual([{ text: 'windows line', style: {} }]);
  });
});

describe('extendedColour', () => {
  it.each([
    [undefined, null],
    [3, null],
    [16, 'rgb(0, 0, 0)'],
    [21, 'rgb(0, 0, 255)'],
    [196, 'rgb(255, 0, 0)'],
    [232, 'rgb(8, 8, 8)'],
    ['rgb(1, 2, 3)', 'rgb(1, 2, 3)'],
  ])('%j → %j', (colour, expected) => {
    expect(extendedColour(colour)).toBe(expected);
  });
});

const LOG = [
  `Running with gitlab-runner`,
  `${E}[0Ksection_start:1700000000:prepare_script\r${E}[0K${E}[36;1mPreparing environment${E}[0;m`,
  'Running on host',
  `${E}[0Ksection_end:1700000003:prepare_script\r${E}[0K`,
  `${E}[0Ksection_start:1700000003:step_script[collapsed=true]\r${E}[0KExecuting "step_script"`,
  '$ npm test',
  `${E}[0Ksection_start:1700000004:inner\r${E}[0KInner`,
  'inner line',
  `${E}[0Ksection_end:1700000010:inner\r${E}[0K`,
  `${E}[0Ksection_end:1700000070:step_script\r${E}[0K`,
  `${E}[32;1mJob succeeded${E}[0;m`,
  '',
].join('\n');

describe('parseJobLog', () => {
  const lines = parseJobLog(LOG);

  it('numbers the shown lines; end markers are not lines', () => {
    expect(lines.map((line) => [line.number, line.segments.map((s) => s.text).join('')])).toEqual([
      [1, 'Running with gitlab-runner'],
      [2, 'Preparing environment'],
      [3, 'Running on host'],
      [4, 'Executing "step_script"'],
      [5, '$ npm test'],
      [6, 'Inner'],
      [7, 'inner line'],
      [8, 'Job succeeded'],
    ]);
  });

  it('marks section headers with their duration and nesting', () => {
    expect(lines[1]!.header).toEqual({ section: 'prepare_script', collapsed: false, duration: 3 });
    expect(lines[3]!.header).toEqual({ section: 'step_script', collapsed: true, duration: 67 });
    expect(lines[5]!.sections).toEqual(['step_script', 'inner']);
    expect(lines[6]!.sections).toEqual(['step_script', 'inner']);
    expect(lines[7]!.sections).toEqual([]);
  });

  it('folds a section to its header, nested ones with it', () => {
    const shown = (collapsed: Set<string>) => visibleLines(lines, collapsed).map((line) => line.number);
    expect(initiallyCollapsed(lines)).toEqual(new Set(['step_script']));
    expect(shown(new Set(['step_script']))).toEqual([1, 2, 3, 4, 8]);
    expect(shown(new Set(['prepare_script']))).toEqual([1, 2, 4, 5, 6, 7, 8]);
    expect(shown(new Set(['step_script/inner']))).toEqual([1, 2, 3, 4, 5, 6, 8]);
    expect(shown(new Set())).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('reads an empty log as no lines', () => {
    expect(parseJobLog('')).toEqual([]);
  });
});

describe('timestamped logs (gitlab-runner FF_TIMESTAMPS)', () => {
  it('takes the timestamp and stream prefix off each line and keeps the text, colours and sections', () => {
    const log = [
      '2026-11-27T10:00:01.123456Z 00O \u001b[32mready\u001b[0m',
      '2026-11-27T10:00:02.000000Z 00O section_start:1700000000:build[collapsed=true]\r\u001b[0KBuilding',
      '2026-11-27T10:00:03.5Z 01E+ half a line',
      'no timestamp here',
    ].join('\n');
    const lines = parseJobLog(log);
    expect(lines.map((line) => line.timestamp)).toEqual(['2026-11-27T10:00:01.123456Z', '2026-11-27T10:00:02.000000Z', '2026-11-27T10:00:03.5Z', undefined]);
    expect(lines.map((line) => line.segments.map((segment) => segment.text).join(''))).toEqual(['ready', 'Building', 'half a line', 'no timestamp here']);
    expect(lines[1]!.header?.section).toBe('build');
  });
});
