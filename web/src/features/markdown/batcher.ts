/**
 * Collects the texts asked for within one task and sends them together: a page of notes mounts
 * dozens of bodies in one render, and one request for them all is far cheaper (for the browser,
 * the server and the database) than one each. Texts are grouped by `group` (the project they
 * render in), split into batches the server accepts (limits below), and asked once each.
 */
export interface BatcherOptions {
  send: (group: string, texts: string[]) => Promise<string[]>;
  /** the server's limits for one batch: texts, and UTF-8 bytes in all */
  maxTexts: number;
  maxBytes: number;
  /** when the collected texts go (default: after the current task, so one render's asks travel together) */
  schedule?: (flush: () => void) => void;
}

interface Pending {
  resolve: (html: string) => void;
  reject: (error: unknown) => void;
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/** Splits texts into consecutive batches of at most `maxTexts` texts and `maxBytes` bytes (a lone text over the limit goes alone). */
export function splitBatches(texts: readonly string[], maxTexts: number, maxBytes: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const text of texts) {
    const size = byteLength(text);
    if (current.length > 0 && (current.length >= maxTexts || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(text);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export function createBatcher({ send, maxTexts, maxBytes, schedule = (flush) => setTimeout(flush, 0) }: BatcherOptions) {
  // group → text → the callers waiting for it
  let queued = new Map<string, Map<string, Pending[]>>();
  let scheduled = false;

  function flush() {
    scheduled = false;
    const groups = queued;
    queued = new Map();
    for (const [group, waiting] of groups) {
      for (const batch of splitBatches([...waiting.keys()], maxTexts, maxBytes)) {
        send(group, batch).then(
          (html) => {
            batch.forEach((text, index) => {
              const rendered = html[index];
              for (const pending of waiting.get(text)!) {
                if (typeof rendered === 'string') pending.resolve(rendered);
                else pending.reject(new Error('The rendered batch is missing a text'));
              }
            });
          },
          (error: unknown) => batch.forEach((text) => waiting.get(text)!.forEach((pending) => pending.reject(error))),
        );
      }
    }
  }

  return {
    /** The text rendered in `group`, sent with whatever else is asked before the batch goes. */
    load(group: string, text: string): Promise<string> {
      return new Promise<string>((resolve, reject) => {
        const waiting = queued.get(group) ?? queued.set(group, new Map()).get(group)!;
        (waiting.get(text) ?? waiting.set(text, []).get(text)!).push({ resolve, reject });
        if (!scheduled) {
          scheduled = true;
          schedule(flush);
        }
      });
    },
  };
}
