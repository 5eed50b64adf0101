import { QuestionIcon } from '@primer/octicons-react';
import { Tooltip } from '@primer/react';
import styles from './Reports.module.css';
import { coverageText, deltaMeaning, jobsDescription, jobsText } from './coverage-text';

/**
 * The head pipeline's coverage in the widget (GitLab's pipeline container): the value, its change
 * against the target's pipeline when both have one, and how many jobs it averages, their names and
 * values behind the help icon.
 */
export function PipelineCoverage({ coverage, delta, jobs }: { coverage: number; delta: string | null; jobs: { name: string; coverage: number }[] }) {
  const meaning = delta === null ? null : deltaMeaning(delta);
  const explanation = [jobsDescription(jobs.length), ...jobs.map((job) => `${job.name} (${job.coverage}%)`)].join(' ');
  return (
    <p className={styles.coverage} data-testid="pipeline-coverage">
      {coverageText(coverage)}{' '}
      {meaning ? (
        <Tooltip text={meaning.description} type="description" direction="n">
          <button type="button" className={`${styles.plain} ${styles[meaning.tone]}`}>
            ({delta}%)
          </button>
        </Tooltip>
      ) : null}{' '}
      {jobsText(jobs.length)}{' '}
      <Tooltip text={explanation} type="label" direction="n">
        <button type="button" className={`${styles.plain} ${styles.help}`}>
          <QuestionIcon size={14} />
        </button>
      </Tooltip>
    </p>
  );
}
