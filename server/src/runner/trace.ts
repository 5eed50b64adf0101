import { crc32 } from 'node:zlib';
import { createLogMasker } from '../domains/ci-variables/mask-secrets.js';

/** One answer to `PATCH /jobs/:id/trace`: status, its `Range: 0-<size>` and `Job-Status`. */
export interface TracePatchAnswer {
  status: number;
  range?: string | null;
  jobStatus?: string | null;
}

export type TracePatch = (start: number, chunk: Buffer) => Promise<TracePatchAnswer>;

export interface Trace {
  /** Appends log text; masked values become `[MASKED]` before anything is kept or sent. */
  write(text: string | Buffer): void;
  /** Sends what the server has not acknowledged yet, in Content-Range chunks. */
  flush(): Promise<void>;
  /** Ends the log (the masker's held-back tail) and sends the rest. */
  finish(): Promise<void>;
  /** The whole masked log so far, for the final update's checksum and size (a view: valid until the next write). */
  content(): Buffer;
  /** Its length in bytes. */
  size(): number;
  /** Forgets what the server acknowledged (after a 412 the whole log is sent again). */
  resetSent(): void;
}

/** The end of GitLab's `Range: 0-<size>` header: how many bytes the server holds. */
export function parseRangeEnd(range: string | null | undefined): number | undefined {
  const match = /^(?:bytes )?0-(\d+)$/.exec((range ?? '').trim());
  return match ? Number(match[1]) : undefined;
}

/** Content-Range as gitlab-runner sends it: `<start>-<end>`, inclusive end, no unit. */
export function contentRange(start: number, length: number): string {
  return `${start}-${start + length - 1}`;
}

export function traceChecksum(content: Buffer): string {
  return `crc32:${crc32(content).toString(16).padStart(8, '0')}`;
}

/**
 * The job log: masked as it is written, kept in memory (GitLab bounds a log's size; so does
 * `maxBytes` here), sent from the last acknowledged offset. A 416 answer names the offset the
 * server holds (its `Range`), and sending resumes from there, as gitlab-runner does.
 */
export function createTrace(options: {
  patch: TracePatch;
  maskedValues: readonly string[];
  onJobStatus?: (status: string, httpStatus: number) => void;
  chunkBytes?: number;
  maxBytes?: number;
}): Trace {
  const masker = createLogMasker(options.maskedValues);
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  // One growing buffer (doubling), so appending and reading the log stay linear in its size.
  let buffer = Buffer.alloc(64 * 1024);
  let length = 0;
  let truncated = false;
  let sent = 0;
  let sending: Promise<void> | undefined;

  function append(bytes: Buffer): void {
    if (truncated || bytes.length === 0) return;
    if (length + bytes.length > maxBytes) {
      const notice = Buffer.from('\n\x1b[31;1mJob\'s log exceeded limit, log truncated\x1b[0;m\n');
      bytes = Buffer.concat([bytes.subarray(0, Math.max(0, maxBytes - length)), notice]);
      truncated = true;
    }
    if (length + bytes.length > buffer.length) {
      const grown = Buffer.alloc(Math.max(buffer.length * 2, length + bytes.length));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    bytes.copy(buffer, length);
    length += bytes.length;
  }

  function content(): Buffer {
    return buffer.subarray(0, length);
  }

  async function sendPending(): Promise<void> {
    // Each pass either advances, moves to the server's offset, or stops; the bound guards a server that never agrees.
    for (let attempts = 0; sent < length && attempts < 50; attempts++) {
      const all = content();
      const chunk = all.subarray(sent, Math.min(length, sent + chunkBytes));
      const answer = await options.patch(sent, chunk);
      if (answer.jobStatus) options.onJobStatus?.(answer.jobStatus, answer.status);
      if (answer.status === 202) {
        const end = parseRangeEnd(answer.range);
        sent = end !== undefined && end <= length ? end : sent + chunk.length;
      } else if (answer.status === 416) {
        const end = parseRangeEnd(answer.range);
        sent = end !== undefined && end <= length ? end : 0;
      } else {
        if (answer.status === 403 || answer.status === 404) options.onJobStatus?.('failed', answer.status);
        return;
      }
    }
  }

  const flush = async (): Promise<void> => {
    // One send at a time: the periodic flush and the final one must not interleave offsets.
    while (sending) await sending;
    sending = sendPending().finally(() => (sending = undefined));
    return sending;
  };

  return {
    write(text) {
      append(masker.push(typeof text === 'string' ? Buffer.from(text) : text));
    },
    flush,
    async finish() {
      append(masker.end());
      await flush();
    },
    content,
    size: () => length,
    resetSent() {
      sent = 0;
    },
  };
}
