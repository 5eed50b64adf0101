import { describe, expect, it } from 'vitest';
import { rewriteProjectPathUrl } from './project-path-routes.js';

describe('rewriteProjectPathUrl', () => {
  it.each([
    ['/group/project/-/merge_requests/1/widget.json', '/-/project-path/group%2Fproject/-/merge_requests/1/widget.json'],
    ['/a/b/c/project/-/merge_requests/12/widget.json?x=1', '/-/project-path/a%2Fb%2Fc%2Fproject/-/merge_requests/12/widget.json?x=1'],
    ['/group/project/uploads/0123456789abcdef0123456789abcdef/shot.png', '/-/project-path/group%2Fproject/uploads/0123456789abcdef0123456789abcdef/shot.png'],
    ['/group/project/notes/7/outdated_line_change', '/-/project-path/group%2Fproject/notes/7/outdated_line_change'],
    ['/group/project/-/raw/main/docs/logo.png', '/-/project-path/group%2Fproject/-/raw/main/docs/logo.png'],
    ['/g/sub/project/-/raw/feature/x/a%20b.png?inline=false', '/-/project-path/g%2Fsub%2Fproject/-/raw/feature/x/a%20b.png?inline=false'],
  ])('puts the full path of %s in one segment', (url, rewritten) => {
    expect(rewriteProjectPathUrl(url)).toBe(rewritten);
  });

  it('takes a namespace 20 groups deep, and no deeper (GitLab’s limit)', () => {
    const groups = Array.from({ length: 20 }, (_, i) => `g${i}`).join('/');
    expect(rewriteProjectPathUrl(`/${groups}/project/notes/1/outdated_line_change`)).toBe(`/-/project-path/${`${groups}/project`.replaceAll('/', '%2F')}/notes/1/outdated_line_change`);
    const tooDeep = `/g/${groups}/project/notes/1/outdated_line_change`;
    expect(rewriteProjectPathUrl(tooDeep)).toBe(tooDeep);
  });

  it.each([
    '/api/v4/projects/1/uploads/abc/file.png',
    '/-/project/1/uploads/0123456789abcdef0123456789abcdef/file.png',
    '/project/uploads/0123456789abcdef0123456789abcdef/file.png', // a full path has a namespace
    '/group/project/-/merge_requests/1',
    '/group/project/-/merge_requests/1/widget.json/more',
    '/group/project.git/info/refs?service=git-upload-pack',
    '/group/project/uploads/secret',
    '/project/-/raw/main/a.png', // a full path has a namespace
    '/group/project/-/blob/main/-/raw/a.png', // the first /-/ ends the project path
  ])('leaves %s as it is', (url) => {
    expect(rewriteProjectPathUrl(url)).toBe(url);
  });
});
