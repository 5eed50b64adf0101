import { describe, expect, it } from 'vitest';
import { documentTitle } from './document-title';

describe('documentTitle', () => {
  it.each([
    [['Fix it (!1)', 'Merge requests', 'group / project'], 'Fix it (!1) · Merge requests · group / project · Tributary'],
    [['General', 'Settings', 'group / project'], 'General · Settings · group / project · Tributary'],
    [['Page not found'], 'Page not found · Tributary'],
    [[null, undefined, '', 'Projects'], 'Projects · Tributary'],
    [[], 'Tributary'],
  ])('%j → %s', (parts, title) => expect(documentTitle(parts)).toBe(title));
});
