/**
 * GitLab's relative link filter for repository files (a README shown on the project page): a
 * relative link in `dir` at `ref` points at the file in the repository; images at its raw bytes.
 * Absolute URLs, `//host` URLs, fragments, and upload links are left alone. Pure.
 */
export interface RepositoryContext {
  projectPath: string;
  ref: string;
  /** the directory of the rendered file, '' for the root */
  dir: string;
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** `a/./b/../c` → `a/c`; a `..` above the root stays at the root (GitLab's behaviour). */
function normalize(segments: string[]): string[] {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function resolveRepositoryUrl(url: string, kind: 'link' | 'image', context: RepositoryContext): string | null {
  const trimmed = url.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//') || trimmed.startsWith('\\') || HAS_SCHEME.test(trimmed)) return null;
  if (trimmed.startsWith('/uploads/')) return null;
  const cut = trimmed.search(/[?#]/);
  const pathPart = cut === -1 ? trimmed : trimmed.slice(0, cut);
  const suffix = cut === -1 ? '' : trimmed.slice(cut);
  const fromRoot = pathPart.startsWith('/');
  const base = fromRoot ? [] : context.dir.split('/');
  const segments = normalize([...base, ...pathPart.split('/').map(safeDecode)]);
  const directory = pathPart.endsWith('/');
  const route = kind === 'image' ? 'raw' : directory || segments.length === 0 ? 'tree' : 'blob';
  const path = segments.length === 0 ? '' : `/${encodePath(segments.join('/'))}`;
  return `/${context.projectPath}/-/${route}/${encodePath(context.ref)}${path}${kind === 'image' ? '' : suffix}`;
}
