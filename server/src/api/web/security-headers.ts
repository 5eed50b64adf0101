/**
 * Defence-in-depth headers for the web app's files (served by static.ts). They do not replace the
 * Markdown sanitizer (markdown/sanitize.ts) or CSRF checks; they limit what a slip in either can do.
 * Raw files and uploads set their own stricter, sandboxing policy and are not served from here;
 * API responses are JSON and get none of these.
 */

/** One line per directive, so each can say why it is there. */
const APP_SHELL_POLICY: Record<string, string> = {
  'default-src': "'self'",
  // Only the built bundle runs: no inline script, no eval, no third-party script. Vite's index.html
  // has no inline script (the e2e test in e2e/content-security-policy.e2e.test.ts would see one blocked).
  'script-src': "'self'",
  // Primer sets style attributes and injects <style> at run time; inline styles cannot run script.
  'style-src': "'self' 'unsafe-inline'",
  // Markdown may show images and video from anywhere, as GitLab allows; the image diff viewer shows
  // blob: URLs (features/diffs/useImageBlob.ts); data: for images a build or a library inlines.
  'img-src': '* data: blob:',
  'media-src': '* data: blob:',
  'font-src': "'self' data:",
  // The merge widget's graphql-ws subscription opens ws(s)://<this host>/api/graphql; 'self' covers that
  // only in browsers that implement CSP Level 3's same-host ws:/wss: rule, so the schemes are named.
  'connect-src': "'self' ws: wss:",
  'object-src': "'none'",
  // An injected <base> would re-point every relative script and link.
  'base-uri': "'self'",
  // An injected <form> cannot post the user's input elsewhere.
  'form-action': "'self'",
  // No framing: clickjacking of the merge, approve and delete buttons.
  'frame-ancestors': "'none'",
};

export const CONTENT_SECURITY_POLICY = Object.entries(APP_SHELL_POLICY)
  .map(([directive, sources]) => `${directive} ${sources}`)
  .join('; ');

/** Every file the web app serves: a browser must not guess an asset into HTML or script. */
export const ASSET_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
} as const;

/** index.html, for `/` and every client route. */
export const APP_SHELL_SECURITY_HEADERS = {
  ...ASSET_SECURITY_HEADERS,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  // frame-ancestors' counterpart for browsers without CSP Level 2.
  'x-frame-options': 'DENY',
  // Links out of a private project's pages carry only our origin, never the project's path.
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;
