import { describe, expect, it } from 'vitest';
import { contentRange, createTrace, parseRangeEnd, type TracePatch } from './trace.js';

/** A server that appends at its own offset and answers as GitLab's trace endpoint does. */
function fakeServer(options: { failFirstAt?: number } = {}) {
  let stored = Buffer.alloc(0);
  const calls: string[] = [];
  let dropped = false;
  const patch: TracePatch = async (start, chunk) => {
    calls.push(contentRange(start, chunk.length));
    if (start !== stored.length) return { status: 416, range: `0-${stored.length}` };
    if (options.failFirstAt !== undefined && !dropped && start >= options.failFirstAt) {
      // the server lost the last chunk it acknowledged: it holds fewer bytes than the runner thinks
      dropped = true;
      stored = stored.subarray(0, options.failFirstAt - 2);
      return { status: 416, range: `0-${stored.length}` };
    }
    stored = Buffer.concat([stored, chunk]);
    return { status: 202, range: `0-${stored.length}`, jobStatus: 'running' };
  };
  return { patch, calls, stored: () => stored.toString() };
}

describe('trace', () => {
  it('parses the Range header', () => {
    expect(parseRangeEnd('0-42')).toBe(42);
    expect(parseRangeEnd('bytes 0-7')).toBe(7);
    expect(parseRangeEnd('5-9')).toBeUndefined();
    expect(parseRangeEnd(undefined)).toBeUndefined();
    expect(contentRange(10, 5)).toBe('10-14');
  });

  it('sends the log in Content-Range chunks from the acknowledged offset', async () => {
    const server = fakeServer();
    const trace = createTrace({ patch: server.patch, maskedValues: [], chunkBytes: 4 });
    trace.write('hello ');
    await trace.flush();
    trace.write('world');
    await trace.finish();
    expect(server.stored()).toBe('hello world');
    expect(server.calls).toEqual(['0-3', '4-5', '6-9', '10-10']);
  });

  it('resumes from the server’s Range after a 416', async () => {
    const server = fakeServer({ failFirstAt: 8 });
    const trace = createTrace({ patch: server.patch, maskedValues: [], chunkBytes: 4 });
    trace.write('0123456789abcdef');
    await trace.finish();
    expect(server.stored()).toBe('0123456789abcdef');
    expect(server.calls).toContain('6-9');
  });

  it('masks a secret split across writes before it is kept or sent', async () => {
    const server = fakeServer();
    const trace = createTrace({ patch: server.patch, maskedValues: ['s3cr3t-value'], chunkBytes: 3 });
    trace.write('token=s3cr');
    await trace.flush();
    trace.write('3t-val');
    await trace.flush();
    trace.write('ue done');
    await trace.finish();
    expect(server.stored()).toBe('token=[MASKED] done');
    expect(trace.content().toString()).not.toContain('s3cr');
  });

  it('reports Job-Status and stops on 403', async () => {
    const statuses: string[] = [];
    const trace = createTrace({
      patch: async () => ({ status: 202, range: '0-1', jobStatus: 'canceling' }),
      maskedValues: [],
      onJobStatus: (status) => statuses.push(status),
    });
    trace.write('x');
    await trace.flush();
    expect(statuses).toEqual(['canceling']);
    const refused = createTrace({ patch: async () => ({ status: 403 }), maskedValues: [], onJobStatus: (status, http) => statuses.push(`${status}/${http}`) });
    refused.write('y');
    await refused.finish();
    expect(statuses).toEqual(['canceling', 'failed/403']);
  });

  it('truncates a log past its limit with a notice', async () => {
    const server = fakeServer();
    const trace = createTrace({ patch: server.patch, maskedValues: [], maxBytes: 5 });
    trace.write('0123456789');
    trace.write('more');
    await trace.finish();
    expect(server.stored()).toMatch(/^01234\n.*log truncated/);
  });
});
