import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../platform/db/database.js';
import type { JobRow, PipelineRow } from './pipeline.js';
import { createPipelineChangeAnnouncer } from './pipeline-change-announcer.js';

const tx = (name: string) => ({ name }) as unknown as Queryable;
const job = (id: number) => ({ id }) as JobRow;
const pipeline = { id: 7, project_id: 3 } as PipelineRow;

describe('pipeline change announcer', () => {
  it('publishes one pipeline.changed per processing, in its transaction, with the jobs moved in that transaction', async () => {
    const published: { type: string; payload: unknown; tx: unknown }[] = [];
    const announcer = createPipelineChangeAnnouncer({ publish: async (type, payload, inTx) => (published.push({ type, payload, tx: inTx }), published.length) });
    const first = tx('first');
    const other = tx('other');
    await announcer.jobMoved!(job(1), first);
    await announcer.jobMoved!(job(2), first);
    await announcer.jobMoved!(job(1), first);
    await announcer.jobMoved!(job(9), other);
    await announcer.pipelineProcessed!(pipeline, first);
    // the next processing in the same transaction starts afresh
    await announcer.pipelineProcessed!(pipeline, first);
    expect(published).toEqual([
      { type: 'pipeline.changed', payload: { pipelineId: 7, projectId: 3, jobIds: [1, 2] }, tx: first },
      { type: 'pipeline.changed', payload: { pipelineId: 7, projectId: 3, jobIds: [] }, tx: first },
    ]);
  });
});
