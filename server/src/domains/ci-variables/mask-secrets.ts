/**
 * Masking of secret values in job logs, as GitLab does: every occurrence of a masked variable's
 * value becomes `[MASKED]`. Logs arrive in chunks, so the streaming masker holds back the last
 * (longest value − 1) bytes of what it saw until the next chunk (or the end) shows whether they
 * begin a secret; a value split across two chunks is still masked.
 */
export const MASK = '[MASKED]';
const MASK_BYTES = Buffer.from(MASK);

function secretsOf(values: readonly string[]): Buffer[] {
  // Longest first: where two values start at the same place the longer one is hidden whole.
  return [...new Set(values.filter((value) => value.length > 0))].map((value) => Buffer.from(value)).sort((a, b) => b.length - a.length);
}

/**
 * Replaces the secrets in `data` that start before `limit`; returns the output and the offset
 * where it stopped (the bytes from there on were not looked at as a secret's start).
 */
function replace(data: Buffer, secrets: readonly Buffer[], limit: number): { out: Buffer; consumed: number } {
  const parts: Buffer[] = [];
  let position = 0;
  // the next occurrence of each secret at or after `position` (-1: none)
  const next = secrets.map((secret) => data.indexOf(secret, 0));
  for (;;) {
    let best = -1;
    for (let i = 0; i < secrets.length; i++) {
      if (next[i]! !== -1 && next[i]! < position) next[i] = data.indexOf(secrets[i]!, position);
      if (next[i]! !== -1 && (best === -1 || next[i]! < next[best]!)) best = i;
    }
    if (best === -1 || next[best]! >= limit) break;
    const start = next[best]!;
    parts.push(data.subarray(position, start), MASK_BYTES);
    position = start + secrets[best]!.length;
  }
  const consumed = Math.max(position, Math.min(limit, data.length));
  parts.push(data.subarray(position, consumed));
  return { out: Buffer.concat(parts), consumed };
}

/** Masks every secret in a whole text (a finished log, an error message). */
export function maskSecrets(text: string, maskedValues: readonly string[]): string {
  const secrets = secretsOf(maskedValues);
  if (secrets.length === 0) return text;
  const data = Buffer.from(text);
  return replace(data, secrets, data.length).out.toString();
}

export interface LogMasker {
  /** The masked bytes that may be shown now (possibly fewer than given: a tail is held back). */
  push(chunk: Buffer): Buffer;
  /** The held-back tail, masked: call once, when the log ends. */
  end(): Buffer;
}

/** A masker for a log that arrives in chunks. */
export function createLogMasker(maskedValues: readonly string[]): LogMasker {
  const secrets = secretsOf(maskedValues);
  const holdBack = secrets.length === 0 ? 0 : secrets[0]!.length - 1;
  let pending: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      const data = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (secrets.length === 0) return data;
      // A secret that starts before the limit is wholly inside `data` or cannot be one; bytes from the limit on may begin one.
      const { out, consumed } = replace(data, secrets, Math.max(0, data.length - holdBack));
      pending = Buffer.from(data.subarray(consumed));
      return out;
    },
    end() {
      const { out } = replace(pending, secrets, pending.length);
      pending = Buffer.alloc(0);
      return out;
    },
  };
}
