// Reactions on one event run in the order they were registered (platform/events.ts), so the order
// the families are composed in is behaviour: a push records the merge request's new version before
// CI creates the push's pipeline; a new version traces diff threads, writes its system note and
// resets approvals before the merge request pipeline is created. This records each `react` call
// while the services are built (no database is touched while composing) and checks that order.
import { describe, expect, it, vi } from 'vitest';

const reactions: { event: string; source: string }[] = [];
vi.mock('../platform/events.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../platform/events.js')>();
  return {
    ...original,
    createEventBus: (deps: Parameters<typeof original.createEventBus>[0]) => {
      const bus = original.createEventBus(deps);
      return {
        ...bus,
        react: ((event, reaction) => {
          reactions.push({ event, source: String(reaction) });
          bus.react(event, reaction);
        }) as typeof bus.react,
      };
    },
  };
});

const { createServices } = await import('../app.js');
const { loadConfig } = await import('../platform/config.js');
const { createLogger } = await import('../platform/logger.js');

function reactionsTo(event: string): string[] {
  return reactions.filter((r) => r.event === event).map((r) => r.source);
}

describe('the composition root registers reactions in dependency order', () => {
  const unused = () => {
    throw new Error('composing reads no database');
  };
  createServices({
    config: loadConfig({}, { dataDir: '/nonexistent/tributary-composition-test' }),
    db: new Proxy({}, { get: () => unused }) as never,
    logger: createLogger('silent'),
    storage: { pathFor: (projectId: number) => `/nonexistent/${projectId}.git` } as never,
    internalSocket: '/nonexistent/socket',
  });

  it('a push: the merge request version first, then the pipeline, then merge trains', () => {
    const pushed = reactionsTo('repository.pushed');
    expect(pushed).toHaveLength(3);
    expect(pushed[0]).toContain('mergeRequestVersions.onPushed');
    expect(pushed[1]).toContain('pipelinesDomain.onPushed');
    expect(pushed[2]).toContain('reactions.onPushed');
  });

  it('a new version: outdated threads, system notes, approvals, auto-merge following the push, the merge request pipeline, then merge trains', () => {
    const recorded = reactionsTo('merge_request.version_recorded');
    expect(recorded).toHaveLength(6);
    expect(recorded[0]).toContain('outdatedDiscussions.onVersionRecorded');
    expect(recorded[1]).toContain('systemNotes.onVersionRecorded');
    expect(recorded[2]).toContain('approvalsDomain.reactions.onVersionRecorded');
    expect(recorded[3]).toContain('autoMerge.onVersionRecorded');
    expect(recorded[4]).toContain('mergeRequestPipelines.onVersionRecorded');
    // a train looks at a car's new version once its pipelines exist (a push takes it off)
    expect(recorded[5]).toContain('reactions.onMergeRequestChanged');
  });

  it('a merge request event: the system note, then approvals, then merge trains', () => {
    const recorded = reactionsTo('merge_request.event_recorded');
    expect(recorded).toHaveLength(3);
    expect(recorded[0]).toContain('systemNotes.onEventRecorded');
    expect(recorded[1]).toContain('approvalsDomain.reactions.onEventRecorded');
    expect(recorded[2]).toContain('reactions.onMergeRequestChanged');
  });
});
