import { describe, expect, it } from 'vitest';
import { signRequest, uriEncode } from './sigv4.js';

describe('signRequest', () => {
  it('gives the signature of AWS\'s documented example (GET Object with a Range header)', () => {
    const headers = signRequest(
      { method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { range: 'bytes=0-9' }, payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' },
      new Date('2013-05-24T00:00:00Z'),
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it.each([
    ['a b', false, 'a%20b'],
    ['a/b', true, 'a/b'],
    ['a/b', false, 'a%2Fb'],
    ['ü+~', true, '%C3%BC%2B~'],
  ] as const)('uriEncode(%s)', (input, keepSlash, expected) => {
    expect(uriEncode(input, keepSlash)).toBe(expected);
  });
});
