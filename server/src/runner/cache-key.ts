import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * Where a cache lives: `<builds dir>/cache/<project path>/<key>.zip`. The key is the job's text
 * (it may contain `/`, `..` or anything a variable expanded to), so each part is reduced to safe
 * characters and, when that changed it, suffixed with a digest so two keys never share a file.
 */
function safeSegment(value: string): string {
  const cleaned = value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  if (cleaned === value && cleaned !== '') return cleaned;
  return `${cleaned.slice(0, 64)}-${createHash('sha256').update(value).digest('hex').slice(0, 12)}`;
}

export function cacheKey(key: string | undefined): string {
  return safeSegment(key && key.trim() !== '' ? key : 'default');
}

export function cacheFile(buildsDir: string, projectPath: string, key: string | undefined): string {
  const parts = projectPath.split('/').filter((part) => part !== '').map(safeSegment);
  return join(buildsDir, 'cache', ...(parts.length ? parts : ['project']), `${cacheKey(key)}.zip`);
}
