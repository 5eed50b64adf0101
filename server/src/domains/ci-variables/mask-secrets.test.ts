import { describe, expect, it } from 'vitest';
import { createLogMasker, maskSecrets } from './mask-secrets.js';

describe('maskSecrets', () => {
  it.each([
    ['token=s3cr3tValue here', ['s3cr3tValue'], 'token=[MASKED] here'],
    ['s3cr3tValue s3cr3tValue', ['s3cr3tValue'], '[MASKED] [MASKED]'],
    ['no secret here', ['s3cr3tValue'], 'no secret here'],
    ['abcdefgh-long abcdefgh', ['abcdefgh', 'abcdefgh-long'], '[MASKED] [MASKED]'],
    ['unicode: pässwörd1 end', ['pässwörd1'], 'unicode: [MASKED] end'],
    ['nothing to mask', [], 'nothing to mask'],
    ['empty values are ignored', [''], 'empty values are ignored'],
  ])('%s', (text, values, expected) => {
    expect(maskSecrets(text, values)).toBe(expected);
  });
});

describe('createLogMasker', () => {
  const secret = 'SuperSecret123';
  const log = `start ${secret} middle ${secret}${secret} and pässwörd1 end ${secret}`;
  const values = [secret, 'pässwörd1'];
  const expected = maskSecrets(log, values);

  /** Feeds the log in pieces cut at the given byte offsets. */
  function streamed(cuts: number[]): string {
    const bytes = Buffer.from(log);
    const masker = createLogMasker(values);
    const out: Buffer[] = [];
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      out.push(masker.push(bytes.subarray(from, cut)));
      from = cut;
    }
    out.push(masker.end());
    return Buffer.concat(out).toString();
  }

  it('masks a value cut across chunks at every possible place', () => {
    const length = Buffer.byteLength(log);
    for (let cut = 0; cut <= length; cut++) expect(streamed([cut]), `cut at ${cut}`).toBe(expected);
  });

  it('masks when the log arrives one byte at a time', () => {
    expect(streamed(Array.from({ length: Buffer.byteLength(log) - 1 }, (_, i) => i + 1))).toBe(expected);
    expect(expected).not.toContain(secret);
  });

  it('holds back at most the longest value less one byte', () => {
    const masker = createLogMasker([secret]);
    const shown = masker.push(Buffer.from('x'.repeat(100)));
    expect(shown.length).toBe(100 - (secret.length - 1));
    expect(masker.end().toString()).toBe('x'.repeat(secret.length - 1));
  });

  it('passes everything through at once without masked values', () => {
    const masker = createLogMasker([]);
    expect(masker.push(Buffer.from('abc')).toString()).toBe('abc');
    expect(masker.end().length).toBe(0);
  });
});
