import { useCallback, useEffect, useRef, useState } from 'react';
import { API_PREFIX } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { JOB_TRACE_UPDATED, jobGid, useCoalesced, useLiveUpdates, type LiveState } from './live';

/** While the trace channel is down and the job runs, the log is read this often (GitLab's job page polls its trace too). */
export const TRACE_POLL_MS = 1_000;

/** The total size in `Content-Range: bytes <a>-<b>/<total>`, or null. Pure. */
export function rangeTotal(header: string | null): number | null {
  const match = /\/(\d+)\s*$/.exec(header ?? '');
  return match ? Number(match[1]) : null;
}

export interface JobTrace {
  /** the log so far; null while there is none to show (no log endpoint, or the job's log is missing) */
  text: string | null;
  loading: boolean;
  error: unknown;
  retry(): void;
  live: LiveState;
}

/**
 * A job's log, read in pieces: the first read takes it whole, each later one only what was
 * appended (`Range: bytes=<offset>-`, answered 206 with the rest or 416 when nothing is new). A
 * read runs on every `ciJobTraceUpdated` message, every second while that channel is down and
 * the job runs, and once more when the job finishes. Bytes are decoded as one UTF-8 stream, so
 * a character split between two chunks comes out whole.
 */
export function useJobTrace(projectId: number, jobId: number, running: boolean): JobTrace {
  const [text, setText] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const offset = useRef(0);
  const decoder = useRef(new TextDecoder());
  const url = `${API_PREFIX}/projects/${projectId}/jobs/${jobId}/trace`;

  const read = useCoalesced(async () => {
    try {
      const response = await fetch(url, { credentials: 'same-origin', headers: { Range: `bytes=${offset.current}-` } });
      if (response.status === 416) {
        setText((current) => current ?? '');
        return;
      }
      if (response.status === 404) {
        setText(null);
        return;
      }
      if (!response.ok) throw new ApiError(response.status, `The job log could not be loaded (${response.status}).`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (response.status === 206) {
        const piece = decoder.current.decode(bytes, { stream: true });
        offset.current = rangeTotal(response.headers.get('content-range')) ?? offset.current + bytes.length;
        setText((current) => (current ?? '') + piece);
      } else {
        // A server that ignores Range sends it all: start again from its whole answer.
        decoder.current = new TextDecoder();
        offset.current = bytes.length;
        setText(decoder.current.decode(bytes, { stream: true }));
      }
      setError(null);
    } catch (cause) {
      setError(cause);
    } finally {
      setLoading(false);
    }
  });

  const live = useLiveUpdates(JOB_TRACE_UPDATED, running ? { jobId: jobGid(jobId) } : null, read);

  useEffect(() => {
    read();
  }, [read, running]);

  useEffect(() => {
    if (!running || live === 'live') return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'hidden') read();
    }, TRACE_POLL_MS);
    return () => clearInterval(timer);
  }, [running, live, read]);

  const retry = useCallback(() => {
    setLoading(true);
    read();
  }, [read]);

  return { text, loading, error, retry, live };
}
