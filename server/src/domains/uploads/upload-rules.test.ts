import { describe, expect, it } from 'vitest';
import { altText, isImageOrVideo, uploadAlt, sanitizeFilename, servingHeaders, uploadMarkdown, uploadUrl } from './upload-rules.js';

const SECRET = '0123456789abcdef0123456789abcdef';

describe('sanitizeFilename', () => {
  it.each([
    ['shot.png', 'shot.png'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['..', 'file'],
    ['.', 'file'],
    ['', 'file'],
    ['a/b/', 'file'],
    ['my report (final).pdf', 'my_report__final_.pdf'],
    ['x\0.png', 'x.png'],
    ['%2e%2e%2fpasswd', '_2e_2e_2fpasswd'],
    ['c++.txt', 'c++.txt'],
    ['été.txt', 'été.txt'],
    ['<svg onload=x>.svg', '_svg_onload_x_.svg'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFilename(input)).toBe(expected);
  });

  it('keeps long names at 255 characters with their extension', () => {
    const name = sanitizeFilename(`${'a'.repeat(400)}.png`);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.png')).toBe(true);
  });
});

describe('markdown and URLs', () => {
  it('writes an image as an image and anything else as a link', () => {
    expect(uploadMarkdown(SECRET, 'shot.png')).toBe(`![shot](/uploads/${SECRET}/shot.png)`);
    expect(uploadMarkdown(SECRET, 'notes.txt')).toBe(`[notes.txt](/uploads/${SECRET}/notes.txt)`);
    expect(uploadMarkdown(SECRET, 'logo.svg')).toBe(`[logo.svg](/uploads/${SECRET}/logo.svg)`);
    expect(uploadMarkdown(SECRET, 'a[1].txt')).toBe(`[a\\[1\\].txt](/uploads/${SECRET}/a%5B1%5D.txt)`);
  });

  it('percent-encodes the name in the URL', () => {
    expect(uploadUrl(SECRET, 'été.txt')).toBe(`/uploads/${SECRET}/%C3%A9t%C3%A9.txt`);
  });

  it('alt text is the name without its extension', () => {
    expect(altText('dk.png')).toBe('dk');
    expect(altText('.hidden')).toBe('.hidden');
    expect(altText('archive.tar.gz')).toBe('archive.tar');
  });
});

describe('servingHeaders', () => {
  it('shows raster images and videos inline', () => {
    expect(servingHeaders('a.PNG')).toMatchObject({ 'content-type': 'image/png', 'x-content-type-options': 'nosniff' });
    expect(servingHeaders('a.png')['content-disposition']).toMatch(/^inline;/);
    expect(servingHeaders('clip.webm')['content-disposition']).toMatch(/^inline;/);
    expect(isImageOrVideo('clip.mp4')).toBe(true);
  });

  it('downloads SVG, HTML and everything unknown', () => {
    for (const name of ['logo.svg', 'page.html', 'page.htm', 'x.js', 'noext', 'notes.txt']) {
      const headers = servingHeaders(name);
      expect(headers['content-disposition'], name).toMatch(/^attachment;/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['content-type']).not.toMatch(/html|javascript/);
    }
    expect(isImageOrVideo('logo.svg')).toBe(false);
  });

  it('keeps quotes out of the header', () => {
    expect(servingHeaders('a"b.txt')['content-disposition']).toContain('filename="a_b.txt"');
  });
});

describe('uploadAlt', () => {
  it.each([
    ['dk.png', 'dk'],
    ['clip.mp4', 'clip'],
    ['report.pdf', 'report.pdf'],
    ['archive.tar.gz', 'archive.tar.gz'],
    ['notes', 'notes'],
    ['a]b.png', 'a\\]b'],
    ['a]b.txt', 'a\\]b.txt'],
  ])('%s → %s (GitLab keeps the extension of files that are not images or videos)', (name, alt) => {
    expect(uploadAlt(name)).toBe(alt);
  });
});
