/**
 * GitLab's Cobertura parser (Gitlab::Ci::Parsers::Coverage::Cobertura) on a streaming XML
 * parser: per file, the hits of each line (`{"12": 3, "13": 0}`). A `<class filename>` is
 * resolved against the report's `<source>` paths: an absolute source is cut after the project's
 * own path (`/builds/group/project/src` → `src`), a relative one is used as it is, and the first
 * candidate that exists in the commit's tree wins; without sources the filename is used as it is.
 * Hits of the same line in several classes are added up. No DOCTYPE, no entities (junit-parser.ts).
 */
import { SaxesParser } from 'saxes';

export type LineHits = Record<string, number>;

/** GitLab reads at most this many `<source>` elements. */
export const MAX_SOURCES = 100;
const SLICE = 64 * 1024;

export class CoberturaParseError extends Error {}

/** The part of a `<source>` path inside the project, or null when it is not in it. */
export function sourceInProject(source: string, projectPath: string): string | null {
  const trimmed = source.trim().replace(/\/+$/, '');
  if (!trimmed.startsWith('/')) return trimmed === '.' ? '' : trimmed.replace(/^\.\//, '');
  const marker = `/${projectPath}`;
  const at = trimmed.indexOf(`${marker}/`);
  if (at >= 0) return trimmed.slice(at + marker.length + 1);
  if (trimmed.endsWith(marker)) return '';
  return null;
}

export function parseCobertura(xml: Buffer | string, context: { projectPath: string; worktreePaths?: ReadonlySet<string> }): Map<string, LineHits> {
  const parser = new SaxesParser({ position: true });
  const files = new Map<string, LineHits>();
  const sources: string[] = [];
  let sourceText: string[] | null = null;
  let currentFile: string | null = null;
  let resolved: string | null | undefined;

  const resolve = (filename: string): string | null => {
    const candidates = sources.length === 0 ? [filename] : sources.map((source) => (source ? `${source}/${filename}` : filename));
    if (!context.worktreePaths) return candidates[0] ?? null;
    return candidates.find((candidate) => context.worktreePaths!.has(candidate)) ?? (context.worktreePaths.has(filename) ? filename : null);
  };

  parser.on('doctype', () => {
    throw new CoberturaParseError('DOCTYPE is not allowed');
  });
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    if (tag.name === 'source') sourceText = [];
    else if (tag.name === 'class') {
      currentFile = attributes.filename ?? null;
      resolved = undefined;
    } else if (tag.name === 'line' && currentFile !== null) {
      if (resolved === undefined) resolved = resolve(currentFile.replace(/^\.\//, ''));
      if (resolved === null) return;
      const number = Number.parseInt(attributes.number ?? '', 10);
      const hits = Number.parseInt(attributes.hits ?? '', 10);
      if (!Number.isFinite(number) || !Number.isFinite(hits)) return;
      const lines = files.get(resolved) ?? {};
      lines[String(number)] = (lines[String(number)] ?? 0) + hits;
      files.set(resolved, lines);
    }
  });
  parser.on('text', (text) => {
    if (sourceText) sourceText.push(text);
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'source' && sourceText) {
      const inProject = sources.length < MAX_SOURCES ? sourceInProject(sourceText.join(''), context.projectPath) : null;
      if (inProject !== null && !sources.includes(inProject)) sources.push(inProject);
      sourceText = null;
    } else if (tag.name === 'class') currentFile = null;
  });

  const text = typeof xml === 'string' ? xml : xml.toString('utf8');
  try {
    for (let at = 0; at < text.length; at += SLICE) parser.write(text.slice(at, at + SLICE));
    parser.close();
  } catch (error) {
    if (error instanceof CoberturaParseError) throw error;
    throw new CoberturaParseError((error as Error).message);
  }
  return files;
}
