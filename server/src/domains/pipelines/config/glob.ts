/**
 * Ruby's File.fnmatch with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, which GitLab uses for
 * `rules:changes`, `rules:exists` and `only:changes`: `*` and `?` stay inside one path segment,
 * `**\/` spans zero or more directories, `[a-z]` classes, `{a,b}` alternatives, dot files match.
 * Compiled to RE2 so a pattern from the configuration runs in linear time.
 */
import { RE2JS } from 're2js';

const MAX_PATTERN_LENGTH = 1024;

function escape(char: string): string {
  return /[\\^$.|?*+()[\]{}]/.test(char) ? `\\${char}` : char;
}

/** The pattern as an anchored regular expression, or null when it cannot be one. */
export function globToRegex(pattern: string): RE2JS | null {
  return fnmatchToRegex(pattern, { extglob: true });
}

/**
 * The same with Ruby's FNM_EXTGLOB chosen: without it (as CODEOWNERS matches) braces are
 * literal characters.
 */
export function fnmatchToRegex(pattern: string, { extglob }: { extglob: boolean }): RE2JS | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return null;
  let out = '';
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*' && (i === 0 || pattern[i - 1] === '/') && pattern[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else if (pattern[i + 1] === '*' && (i === 0 || pattern[i - 1] === '/') && i + 2 === pattern.length) {
        out += '.*';
        i += 1;
      } else {
        while (pattern[i + 1] === '*') i++;
        out += '[^/]*';
      }
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '{' && extglob) {
      braceDepth++;
      out += '(?:';
    } else if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
    } else if (c === ',' && braceDepth > 0) out += '|';
    else if (c === '\\' && i + 1 < pattern.length) out += escape(pattern[++i]!);
    else out += escape(c);
  }
  if (braceDepth !== 0) return null;
  try {
    return RE2JS.compile(`^${out}$`);
  } catch {
    return null;
  }
}

/** True when the path matches the pattern (GitLab's `File.fnmatch?(pattern, path, flags)`). */
export function globMatches(pattern: string, path: string): boolean {
  const regex = globToRegex(pattern);
  return regex ? regex.matches(path) : false;
}

/** True when any path matches any pattern. Patterns are compiled once. */
export function anyPathMatches(patterns: readonly string[], paths: readonly string[]): boolean {
  const compiled = patterns.map(globToRegex).filter((regex): regex is RE2JS => regex !== null);
  return paths.some((path) => compiled.some((regex) => regex.matches(path)));
}
