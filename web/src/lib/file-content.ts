/**
 * What the blob page can do with a file from `GET …/repository/files/:path`:
 * show it as highlighted text, as an image, or only offer a download.
 */
/** Files larger than this are not rendered (GitLab's viewer also stops at about this size). */
export const MAX_RENDERED_FILE_BYTES = 1024 * 1024;
/** How much of a file is inspected for NUL bytes when deciding whether it is binary (as git does). */
const BINARY_SNIFF_BYTES = 8000;

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'avif']);

export type FileDisplay =
  | { kind: 'text'; text: string }
  | { kind: 'image' }
  | { kind: 'binary' }
  | { kind: 'too-large'; size: number }
  | { kind: 'empty' };

export function extensionOf(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

export function isImageFile(fileName: string): boolean {
  return IMAGE_EXTENSIONS.has(extensionOf(fileName));
}

export function decodeBase64(content: string): Uint8Array {
  const binary = atob(content.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** git's rule: a NUL byte near the start means binary; invalid UTF-8 is treated as binary too. */
export function decodeText(bytes: Uint8Array): string | null {
  const sniff = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

export function classifyFile(file: { file_name: string; size: number; encoding: string; content: string }): FileDisplay {
  if (isImageFile(file.file_name)) return { kind: 'image' };
  if (file.size > MAX_RENDERED_FILE_BYTES) return { kind: 'too-large', size: file.size };
  if (file.size === 0 || file.content === '') return { kind: 'empty' };
  if (file.encoding !== 'base64') return { kind: 'text', text: file.content };
  const text = decodeText(decodeBase64(file.content));
  return text === null ? { kind: 'binary' } : { kind: 'text', text };
}

/** "1.5 KiB", "12 bytes", GitLab-style binary units. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} ${size === 1 ? 'byte' : 'bytes'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', md: 'markdown', markdown: 'markdown',
  py: 'python', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', cs: 'csharp', swift: 'swift',
  php: 'php', sh: 'bash', bash: 'bash', zsh: 'bash', ps1: 'powershell',
  yml: 'yaml', yaml: 'yaml', toml: 'ini', ini: 'ini', cfg: 'ini',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', vue: 'xml',
  css: 'css', scss: 'scss', less: 'less', sql: 'sql', diff: 'diff', patch: 'diff',
  dockerfile: 'dockerfile', mk: 'makefile', lua: 'lua', pl: 'perl', r: 'r', scala: 'scala',
  ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', graphql: 'graphql', gql: 'graphql',
};

const LANGUAGE_BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  '.gitlab-ci.yml': 'yaml',
  '.bashrc': 'bash',
};

/** The highlight.js language for a file name, or null to render plain text. */
export function languageForFile(fileName: string): string | null {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1).toLowerCase();
  return LANGUAGE_BY_NAME[base] ?? LANGUAGE_BY_EXTENSION[extensionOf(base)] ?? null;
}

/** A text's lines as a diff numbers them: no empty last line for the final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
