import { describe, expect, it } from 'vitest';
import type { PageInfo } from '../../lib/pagination';
import { diffPageHasMore, nextDiffPage, type DiffPage } from './diff-pages';

describe('nextDiffPage', () => {
  it('starts small and doubles up to 100 files a page, always on a page boundary', () => {
    const requests = [];
    let loaded = 0;
    while (loaded < 1000) {
      const request = nextDiffPage(loaded);
      // The page starts exactly where the loaded files end.
      expect((request.page - 1) * request.perPage).toBe(loaded);
      requests.push(`${request.perPage}@${request.page}`);
      loaded += request.perPage;
    }
    expect(requests).toEqual(['25@1', '25@2', '50@2', '100@2', '100@3', '100@4', '100@5', '100@6', '100@7', '100@8', '100@9', '100@10']);
  });

  it('continues from any count of loaded files without skipping one', () => {
    for (const loaded of [0, 25, 50, 75, 100, 150, 175, 300, 1025]) {
      const { page, perPage } = nextDiffPage(loaded);
      expect((page - 1) * perPage).toBe(loaded);
    }
  });
});

const info = (overrides: Partial<PageInfo>): PageInfo => ({ page: 1, perPage: 25, total: null, totalPages: null, nextPage: null, prevPage: null, ...overrides });
const page = (offset: number, count: number, pageInfo: PageInfo): DiffPage => ({ offset, items: Array.from({ length: count }, () => ({}) as DiffPage['items'][number]), pageInfo });

describe('diffPageHasMore', () => {
  it('follows X-Total', () => {
    expect(diffPageHasMore(page(0, 25, info({ total: 30 })))).toBe(true);
    expect(diffPageHasMore(page(25, 5, info({ total: 30 })))).toBe(false);
  });

  it('falls back to X-Next-Page when the total is left out', () => {
    expect(diffPageHasMore(page(0, 25, info({ nextPage: 2 })))).toBe(true);
    expect(diffPageHasMore(page(0, 25, info({})))).toBe(false);
  });

  it('stops at an empty page', () => {
    expect(diffPageHasMore(page(100, 0, info({ total: 500 })))).toBe(false);
  });
});
