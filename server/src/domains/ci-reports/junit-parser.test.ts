import { gzipSync } from 'node:zlib';
import { ZipFile } from 'yazl';
import { describe, expect, it } from 'vitest';
import { executionTime, JunitParseError, parseJunit } from './junit-parser.js';
import { gzipMembers, ReportFormatError, reportFiles, ReportTooLargeError } from './report-files.js';

const RSPEC = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="rspec" tests="4" skipped="1" failures="1" errors="0" time="0.01">
  <properties><property name="seed" value="1"/></properties>
  <testcase classname="spec.calculator_spec" name="Calculator#sum adds" file="./spec/calculator_spec.rb" time="0.001"></testcase>
  <testcase classname="spec.calculator_spec" name="Calculator#sub fails" file="./spec/calculator_spec.rb" time="0.25">
    <failure message="expected 1, got 2" type="RSpec::Expectations::ExpectationNotMetError">Failure/Error: expect(1).to eq(2)</failure>
    <system-out>[[ATTACHMENT|screenshots/sub.png]]</system-out>
    <system-err>warning</system-err>
  </testcase>
  <testcase classname="spec.calculator_spec" name="Calculator#div skipped" file="./spec/calculator_spec.rb" time="0"><skipped/></testcase>
  <testcase classname="spec.calculator_spec" name="Calculator#mul errors" time="abc"><error message="boom"/></testcase>
</testsuite>`;

describe('parseJunit (GitLab Gitlab::Ci::Parsers::Test::Junit)', () => {
  it('reads success, failed, skipped and error cases with their output and attachment', () => {
    const cases = parseJunit(RSPEC);
    expect(cases.map((c) => [c.status, c.name])).toEqual([
      ['success', 'Calculator#sum adds'],
      ['failed', 'Calculator#sub fails'],
      ['skipped', 'Calculator#div skipped'],
      ['error', 'Calculator#mul errors'],
    ]);
    expect(cases[0]).toEqual({ suiteName: 'rspec', name: 'Calculator#sum adds', classname: 'spec.calculator_spec', file: './spec/calculator_spec.rb', executionTime: 0.001, status: 'success', systemOutput: null, attachment: null });
    expect(cases[1]!.systemOutput).toBe('Failure/Error: expect(1).to eq(2)\n\nSystem Out:\n\n[[ATTACHMENT|screenshots/sub.png]]\n\nSystem Err:\n\nwarning');
    expect(cases[1]!.attachment).toBe('screenshots/sub.png');
    expect(cases[1]!.executionTime).toBe(0.25);
    expect(cases[2]!.systemOutput).toBeNull();
    // an empty failure or error keeps its message; a time that is not a number is 0 (String#to_f)
    expect(cases[3]).toMatchObject({ systemOutput: 'boom', executionTime: 0, file: null });
  });

  it('reads <testsuites> with nested suites (PHPUnit) and cases at the top level, and CDATA output', () => {
    const xml = `<testsuites>
      <testcase name="top" classname="T"/>
      <testsuite name="outer"><testsuite name="inner">
        <testcase name="deep" classname="D"><failure><![CDATA[a < b & c]]></failure></testcase>
      </testsuite></testsuite>
    </testsuites>`;
    const cases = parseJunit(xml);
    expect(cases.map((c) => [c.suiteName, c.name, c.status])).toEqual([
      [null, 'top', 'success'],
      ['inner', 'deep', 'failed'],
    ]);
    expect(cases[1]!.systemOutput).toBe('a < b & c');
  });

  it('ignores a testcase outside any suite, and returns nothing for an empty document', () => {
    expect(parseJunit('<testcase name="alone"/>')).toEqual([]);
    expect(parseJunit('<testsuites/>')).toEqual([]);
  });

  it.each([
    ['unclosed tags', '<testsuite><testcase name="a">'],
    ['not XML', 'this is not xml'],
    ['two roots', '<testsuite/><testsuite/>'],
    ['an undefined entity', '<testsuite><testcase name="&nope;"/></testsuite>'],
  ])('refuses malformed XML: %s', (_name, xml) => {
    expect(() => parseJunit(xml)).toThrow(JunitParseError);
  });

  it('refuses an XXE attempt and never expands entities (no file is read)', () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <testsuite><testcase name="&xxe;" classname="x"><failure>&xxe;</failure></testcase></testsuite>`;
    expect(() => parseJunit(xxe)).toThrow('DOCTYPE is not allowed');
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><testsuite><testcase name="&lol2;"/></testsuite>`;
    expect(() => parseJunit(laughs)).toThrow(JunitParseError);
  });

  it('stops past the case limit with GitLab’s message', () => {
    const xml = `<testsuite>${'<testcase name="x" classname="c"/>'.repeat(6)}</testsuite>`;
    const error = (() => {
      try {
        parseJunit(xml, { maxCases: 5 });
      } catch (caught) {
        return caught as JunitParseError;
      }
    })();
    expect([error?.kind, error?.message]).toEqual(['data', 'number of test cases exceeded the limit of 5']);
  });

  it('parses a large report (20,000 cases, 5 MB) in slices', () => {
    const body = Array.from({ length: 20_000 }, (_, i) => `<testcase name="case ${i}" classname="big" time="0.001">${i % 100 === 0 ? `<failure>${'x'.repeat(100)}</failure>` : ''}</testcase>`).join('');
    const cases = parseJunit(Buffer.from(`<testsuite name="big">${body}</testsuite>`));
    expect(cases).toHaveLength(20_000);
    expect(cases.filter((c) => c.status === 'failed')).toHaveLength(200);
  });

  it('reads execution times as Ruby’s to_f does', () => {
    expect([executionTime('1.5'), executionTime('2'), executionTime('.5'), executionTime('1e2'), executionTime(''), executionTime(undefined), executionTime('x1')]).toEqual([1.5, 2, 0.5, 100, 0, 0, 0]);
  });
});

describe('report files', () => {
  it('splits a multi-member gzip stream (GitLab Runner’s format) into its files', () => {
    const data = Buffer.concat([gzipSync('<a/>'), gzipSync('<b/>')]);
    expect(gzipMembers(data).map((file) => file.toString())).toEqual(['<a/>', '<b/>']);
  });

  it('stops a decompression bomb at the size limit and refuses what is not gzip', () => {
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => gzipMembers(bomb, 1024 * 1024)).toThrow(ReportTooLargeError);
    expect(() => gzipMembers(Buffer.from('plain text'))).toThrow(ReportFormatError);
  });
});

describe('report files in a zip (Tributary’s runner uploads reports as zip)', () => {
  it('reads every file entry in archive order', async () => {
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from('<a/>'), 'reports/a.xml');
    zip.addBuffer(Buffer.from('<b/>'), 'reports/b.xml');
    zip.end();
    const pieces: Buffer[] = [];
    for await (const piece of zip.outputStream) pieces.push(piece as Buffer);
    expect((await reportFiles('zip', Buffer.concat(pieces))).map((file) => file.toString())).toEqual(['<a/>', '<b/>']);
    expect((await reportFiles('raw', Buffer.from('<c/>'))).map((file) => file.toString())).toEqual(['<c/>']);
    await expect(reportFiles('zip', Buffer.from('not a zip'))).rejects.toThrow('invalid zip archive');
  });
});
