// markdown-it-emoji ships no type declarations; these are the parts we use.
declare module 'markdown-it-emoji' {
  import type { PluginWithOptions } from 'markdown-it';
  export const full: PluginWithOptions<{ defs?: Record<string, string>; shortcuts?: Record<string, string | string[]> }>;
  export const light: typeof full;
  export const bare: typeof full;
}
