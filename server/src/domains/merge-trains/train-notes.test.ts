import { describe, expect, it } from 'vitest';
import { failureReason, logTail, trainNoteBody } from './train-notes.js';

describe('trainNoteBody', () => {
  it.each([
    ['started', null, 'started a merge train'],
    ['added', '#3', 'added this merge request to the merge train at position #3'],
    ['removed', null, 'removed this merge request from the merge train'],
    ['aborted', 'the source branch was updated', 'removed this merge request from the merge train because the source branch was updated'],
  ])('%s', (kind, detail, body) => expect(trainNoteBody(kind, detail)).toBe(body));
});

describe('logTail', () => {
  it('keeps the last lines without colours, section markers or progress rewrites', () => {
    const log = ['\x1b[32;1m$ make test\x1b[0;m', 'section_start:1700000000:step_script\r\x1b[0Kline a', 'progress 10%\rprogress 100%', 'FAIL: 2 != 3', 'section_end:1700000001:step_script\r\x1b[0K', ''].join('\n');
    expect(logTail(log, 3)).toBe('line a\nprogress 100%\nFAIL: 2 != 3');
  });
  it('cannot close the note code block', () => expect(logTail('a ``` b')).toBe("a ''' b"));
  it('answers nothing for an empty log', () => expect(logTail('')).toBe(''));
});

describe('failureReason', () => {
  it('names the job and quotes its log', () => expect(failureReason({ name: 'test' }, 'boom')).toBe('the pipeline did not succeed: job `test` failed\n\n```\nboom\n```'));
  it('without a failed job', () => expect(failureReason(null, '')).toBe('the pipeline did not succeed'));
});
