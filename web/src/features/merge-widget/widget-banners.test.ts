import { describe, expect, it } from 'vitest';
import { widgetBanners } from './widget-banners';

const scheduled = { variant: 'success' as const, text: 'Scheduled a rebase of branch feature.' };
const base = { alert: null, state: 'opened', mergeError: null, rebaseInProgress: false, failedToMergeShown: false, dismissedError: null };
const failed = 'Rebase failed. Please rebase locally';

describe('widgetBanners', () => {
  it.each([
    ['a scheduled rebase alone', { ...base, alert: scheduled }, { alert: scheduled, mergeError: null }],
    ['the rebase failed: only the error', { ...base, alert: scheduled, mergeError: failed }, { alert: null, mergeError: failed }],
    ['while the rebase runs, no earlier error', { ...base, alert: scheduled, mergeError: failed, rebaseInProgress: true }, { alert: scheduled, mergeError: null }],
    ['a dismissed error', { ...base, mergeError: failed, dismissedError: failed }, { alert: null, mergeError: null }],
    ['a merged request', { ...base, state: 'merged', mergeError: failed }, { alert: null, mergeError: null }],
    ['the failed-to-merge panel shows it', { ...base, mergeError: failed, failedToMergeShown: true }, { alert: null, mergeError: null }],
    ['a danger alert stays beside the error', { ...base, alert: { variant: 'danger' as const, text: 'Failed' }, mergeError: failed }, { alert: { variant: 'danger', text: 'Failed' }, mergeError: failed }],
  ])('%s', (_name, input, expected) => {
    expect(widgetBanners(input)).toEqual(expected);
  });
});
