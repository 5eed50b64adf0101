/**
 * The pipeline benchmarks' inputs: a `.gitlab-ci.yml` of N jobs that uses stages, `needs` (DAG)
 * and `parallel: matrix`, and the job script that prints a log of a given size with the time of
 * every line in it (so the reader can tell each line's lag). Pure.
 */

/** About `jobs` jobs (a multiple of 50): five stages of jobs/5 (each extending a hidden `.job`), the second one a 10 × (jobs/50) matrix, DAG needs in stages 3 and 5. */
export function bigPipelineYaml(jobs: number): string {
  const perStage = Math.max(10, Math.floor(jobs / 5 / 10) * 10);
  const archs = Array.from({ length: perStage / 10 }, (_, i) => `arch${i}`);
  const lines = ['stages: [lint, build, test, package, deploy]', '.job:', '  script: ["true"]'];
  for (let i = 0; i < perStage; i++) lines.push(`lint-${i}:`, '  extends: .job', '  stage: lint');
  lines.push('build:', '  extends: .job', '  stage: build', '  parallel:', '    matrix:', `      - OS: [${Array.from({ length: 10 }, (_, i) => `os${i}`).join(', ')}]`, `        ARCH: [${archs.join(', ')}]`);
  for (let i = 0; i < perStage; i++) lines.push(`test-${i}:`, '  extends: .job', '  stage: test', `  needs: [lint-${i}]`);
  for (let i = 0; i < perStage; i++) lines.push(`package-${i}:`, '  extends: .job', '  stage: package');
  for (let i = 0; i < perStage; i++) lines.push(`deploy-${i}:`, '  extends: .job', '  stage: deploy', `  needs: [test-${i}, package-${i}]`);
  return `${lines.join('\n')}\n`;
}

/** How many jobs bigPipelineYaml(jobs) makes. */
export const bigPipelineJobCount = (jobs: number) => 5 * Math.max(10, Math.floor(jobs / 5 / 10) * 10);

/**
 * A `node -e` program printing `bytes` of log at `bytesPerSecond`, in lines of LINE_BYTES that
 * start with `Date.now()`: the reader subtracts it from the time it read the line.
 */
export const LINE_BYTES = 1000;
export function logPrinterScript(bytes: number, bytesPerSecond: number): string {
  const program = [
    `const total=${bytes},rate=${bytesPerSecond},line=${LINE_BYTES},tick=50;`,
    'let sent=0;const pad="x".repeat(line);',
    'const timer=setInterval(()=>{let budget=rate*tick/1000;let out="";',
    'while(budget>0&&sent<total){const head=String(Date.now())+" ";out+=head+pad.slice(head.length+1)+"\\n";sent+=line;budget-=line;}',
    'process.stdout.write(out);if(sent>=total)clearInterval(timer);},tick);',
  ].join('');
  return `node -e '${program}'`;
}

/** Each complete line's lag: `now` minus the time at its start. Pure. */
export function lineLags(text: string, now: number): number[] {
  const lags: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d{13}) x/.exec(line);
    if (match) lags.push(now - Number(match[1]));
  }
  return lags;
}
