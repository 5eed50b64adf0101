import { describe, expect, it } from 'vitest';
import { HTML_SUMMARY_MAX_BYTES, traceHtmlSummary } from './trace-html.js';

const log = (text: string) => Buffer.from(text);

describe('traceHtmlSummary (GitLab’s CiJobTrace.htmlSummary)', () => {
  it.each([
    ['a plain line is one span', 'BUILD TRACE', '<span>BUILD TRACE</span>'],
    ['lines are joined by <br/>, the final newline adds none', 'one\ntwo\n', '<span>one</span><br/><span>two</span>'],
    ['colours and bold become GitLab’s term classes', '\u001b[31;1mred\u001b[0m plain', '<span class="term-fg-red term-bold">red</span><span> plain</span>'],
    ['bright colours and backgrounds', '\u001b[92;44mok', '<span class="term-fg-l-green term-bg-blue">ok</span>'],
    ['a style carries into the next line', '\u001b[32mgreen\nstill', '<span class="term-fg-green">green</span><br/><span class="term-fg-green">still</span>'],
    ['markup in the log stays text', '<img src=x onerror=alert(1)> & "q"', '<span>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;</span>'],
    ['section markers and erase-line sequences are dropped', 'section_start:1700000000:build_script\r\u001b[0KExecuting\nsection_end:1700000001:build_script\r\u001b[0K', '<span>Executing</span><br/>'],
    ['a carriage return keeps what follows it; CRLF ends a line', '10%\r50%\r100%\r\ndone', '<span>100%</span><br/><span>done</span>'],
    ['256 colours have no class and do not eat the text', '\u001b[38;5;196mx', '<span>x</span>'],
  ])('%s', (_name, input, expected) => {
    expect(traceHtmlSummary(log(input))).toBe(expected);
  });

  it('keeps the last 10 lines by default, up to 100 when asked, at least 1', () => {
    const text = Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(traceHtmlSummary(log(text)).split('<br/>')).toHaveLength(10);
    expect(traceHtmlSummary(log(text))).toMatch(/^<span>line 141<\/span>/);
    expect(traceHtmlSummary(log(text), 500).split('<br/>')).toHaveLength(100);
    expect(traceHtmlSummary(log(text), 0)).toBe('<span>line 150</span>');
  });

  it('reads at most the last 16 KB of the log', () => {
    const text = `${'x'.repeat(HTML_SUMMARY_MAX_BYTES)}\nlast`;
    expect(traceHtmlSummary(log(text), 2)).toBe(`<span>${'x'.repeat(HTML_SUMMARY_MAX_BYTES - 5)}</span><br/><span>last</span>`);
  });

  it('an empty log is an empty summary', () => {
    expect(traceHtmlSummary(log(''))).toBe('');
  });
});
