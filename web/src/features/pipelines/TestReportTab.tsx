import { ArrowLeftIcon, BeakerIcon } from '@primer/octicons-react';
import { Button, Dialog, Flash, Heading, Link, Stack } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageError } from '../../components/PageError';
import { PageLoading } from '../../components/PageLoading';
import { testReportQuery, type TestCase, type TestSuite } from './api';
import { formatTestTime, successRate } from './format';
import styles from './Pipelines.module.css';
import { DataTable } from '../../components/DataTable';

const STATUS_LABEL: Record<TestCase['status'], string> = { success: 'Passed', failed: 'Failed', error: 'Error', skipped: 'Skipped' };
const STATUS_TONE: Record<TestCase['status'], string> = { success: 'tone-success', failed: 'tone-danger', error: 'tone-danger', skipped: 'tone-muted' };

/**
 * The pipeline's Tests tab (GitLab's test_report): the totals, a table of suites (one per job with
 * a JUnit report), and a suite's cases, failures and errors first, each case's output in a dialog.
 */
export function TestReportTab({ projectId, pipelineId }: { projectId: number; pipelineId: number }) {
  const report = useQuery(testReportQuery(projectId, pipelineId));
  const [suiteName, setSuiteName] = useState<string | null>(null);
  if (report.isPending) return <PageLoading label="Loading test report…" />;
  if (report.isError) return <PageError title="The test report could not be loaded." error={report.error} onRetry={() => void report.refetch()} />;
  const data = report.data;
  if (data.test_suites.length === 0) {
    return <EmptyState icon={BeakerIcon} title="There are no tests to display" description="You can configure your job to use unit test reports, and the results will be displayed here." />;
  }
  const suite = suiteName === null ? undefined : data.test_suites.find((candidate) => candidate.name === suiteName);
  return (
    <Stack gap="normal">
      <dl className={styles.testSummary} aria-label="Test summary">
        <div>
          <dt>Tests</dt>
          <dd>{data.total_count}</dd>
        </div>
        <div>
          <dt>Failures</dt>
          <dd>{data.failed_count}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd>{data.error_count}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{data.skipped_count}</dd>
        </div>
        <div>
          <dt>Success rate</dt>
          <dd>{successRate(data)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatTestTime(data.total_time)}</dd>
        </div>
      </dl>
      {suite ? <SuiteCases suite={suite} onBack={() => setSuiteName(null)} /> : <SuitesTable suites={data.test_suites} onOpen={setSuiteName} />}
    </Stack>
  );
}

function SuitesTable({ suites, onOpen }: { suites: TestSuite[]; onOpen: (name: string) => void }) {
  return (
    <DataTable label="Test suites" columns={['Suite', 'Duration', 'Failed', 'Errors', 'Skipped', 'Passed', 'Total']}>
      {suites.map((suite) => (
        <tr key={suite.name}>
          <td>
            <Stack gap="condensed">
              <Link as="button" type="button" onClick={() => onOpen(suite.name)} className={styles.linkButton}>
                {suite.name}
              </Link>
              {suite.suite_error ? <span className={styles['tone-danger']}>{suite.suite_error}</span> : null}
            </Stack>
          </td>
          <td>{formatTestTime(suite.total_time)}</td>
          <td>{suite.failed_count}</td>
          <td>{suite.error_count}</td>
          <td>{suite.skipped_count}</td>
          <td>{suite.success_count}</td>
          <td>{suite.total_count}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function SuiteCases({ suite, onBack }: { suite: TestSuite; onBack: () => void }) {
  const [shown, setShown] = useState<TestCase | null>(null);
  return (
    <Stack gap="normal">
      <Stack direction="horizontal" align="center" gap="condensed">
        <Button leadingVisual={ArrowLeftIcon} onClick={onBack}>
          Back to suites
        </Button>
        <Heading as="h3" style={{ fontSize: 16 }}>
          {suite.name}
        </Heading>
      </Stack>
      {suite.suite_error ? (
        <Flash variant="danger" role="alert">
          {suite.suite_error}
        </Flash>
      ) : null}
      <DataTable label={`Tests of ${suite.name}`} columns={['Status', 'Name', 'Class', 'Filename', 'Duration', 'Details']}>
        {suite.test_cases.map((testCase, index) => (
          <tr key={`${testCase.classname}:${testCase.name}:${index}`}>
            <td>
              <span className={styles[STATUS_TONE[testCase.status]]}>{STATUS_LABEL[testCase.status]}</span>
            </td>
            <td className={styles.breakWord}>{testCase.name}</td>
            <td className={`${styles.mono} ${styles.breakWord}`}>{testCase.classname}</td>
            <td className={`${styles.mono} ${styles.breakWord}`}>{testCase.file ?? ''}</td>
            <td>{formatTestTime(testCase.execution_time)}</td>
            <td>
              <Button size="small" onClick={() => setShown(testCase)} aria-label={`View details of ${testCase.name}`}>
                View details
              </Button>
            </td>
          </tr>
        ))}
      </DataTable>
      {shown ? <TestCaseDialog testCase={shown} onClose={() => setShown(null)} /> : null}
    </Stack>
  );
}

function TestCaseDialog({ testCase, onClose }: { testCase: TestCase; onClose: () => void }) {
  return (
    <Dialog title={testCase.name} onClose={onClose} width="xlarge">
      <Stack gap="normal">
        <dl className={styles.caseFacts}>
          <dt>Status</dt>
          <dd>{STATUS_LABEL[testCase.status]}</dd>
          <dt>Class</dt>
          <dd className={styles.mono}>{testCase.classname}</dd>
          {testCase.file ? (
            <>
              <dt>Filename</dt>
              <dd className={styles.mono}>{testCase.file}</dd>
            </>
          ) : null}
          <dt>Execution time</dt>
          <dd>{formatTestTime(testCase.execution_time)}</dd>
          {testCase.attachment_url ? (
            <>
              <dt>Attachment</dt>
              <dd>
                <Link href={testCase.attachment_url}>View attachment</Link>
              </dd>
            </>
          ) : null}
        </dl>
        {testCase.system_output ? (
          <pre className={styles.testOutput} aria-label="System output">
            {testCase.system_output}
          </pre>
        ) : (
          <span className={styles.muted}>No output.</span>
        )}
      </Stack>
    </Dialog>
  );
}
