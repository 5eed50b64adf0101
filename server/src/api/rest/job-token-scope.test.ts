import { describe, expect, it } from 'vitest';
import { jobTokenMayCall } from './authenticate.js';

describe('jobTokenMayCall (the job-token scope of the REST API: the job’s own project by id)', () => {
  it.each([
    ['/api/v4/projects/3', true],
    ['/api/v4/projects/3/jobs/7', true],
    ['/api/v4/projects/3?x=1', true],
    ['/api/v4/projects/33', false],
    ['/api/v4/projects/4/jobs', false],
    ['/api/v4/projects', false],
    ['/api/v4/user', false],
    ['/api/v4/groups/3', false],
    ['/api/v4/projects/grp%2Fproj', false],
  ])('%s → %s', (url, expected) => expect(jobTokenMayCall(url, 3)).toBe(expected));
});
