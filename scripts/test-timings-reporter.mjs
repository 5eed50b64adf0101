/**
 * A Vitest reporter for `npm test` (scripts/test.mjs): writes, per test file, its project, its
 * state, its number of tests and how long it took, from import to its last hook, and when it
 * started and ended (wall clock), to the JSON file named by TRIBUTARY_TEST_TIMINGS. Vitest's own
 * JSON report names no project and counts a file from its first test on, leaving out the
 * server and browser a file starts in beforeAll.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class TestTimingsReporter {
  started = new Map();
  ended = new Map();

  onInit(vitest) {
    this.root = vitest.config.root;
  }

  onTestModuleStart(module) {
    this.started.set(module.id, Date.now());
  }

  onTestModuleEnd(module) {
    this.ended.set(module.id, Date.now());
  }

  onTestRunEnd(modules) {
    const out = process.env.TRIBUTARY_TEST_TIMINGS;
    if (!out) return;
    const now = Date.now();
    const files = modules.map((module) => {
      const diagnostic = module.diagnostic();
      const took = diagnostic.prepareDuration + diagnostic.environmentSetupDuration + diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration;
      let tests = 0;
      for (const _ of module.children.allTests()) tests++;
      const end = this.ended.get(module.id) ?? now;
      return {
        project: module.project.name,
        file: relative(this.root, module.moduleId),
        state: module.state(),
        tests,
        ms: Math.round(took),
        start: this.started.get(module.id) ?? end - took,
        end,
      };
    });
    writeFileSync(out, JSON.stringify({ files }, null, 1));
  }
}
