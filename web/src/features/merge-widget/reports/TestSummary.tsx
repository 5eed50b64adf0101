import { AlertIcon, CheckCircleIcon, ChevronDownIcon, ChevronRightIcon, XCircleIcon } from '@primer/octicons-react';
import { Button, Dialog, Link, Spinner } from '@primer/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { testReportsQuery } from './api';
import styles from './Reports.module.css';
import { suiteCases, suiteText, summaryText, summaryTone, TEST_SUMMARY, type ComparedSuite, type ComparedTestCase } from './test-summary-text';

const TONE_ICON = { success: CheckCircleIcon, warning: AlertIcon, failed: XCircleIcon } as const;

/**
 * The merge request's test summary (GitLab's test report widget): one line comparing the head
 * pipeline's JUnit reports with the target's ("Test summary: 1 failed, 4 total tests"), expanded
 * to a row per suite with its new failures first, each case's details in a dialog. Nothing shows
 * when the head pipeline has no test report.
 */
export function TestSummary({ fullPath, iid, pipeline }: { fullPath: string; iid: number; pipeline: { id: string; status: string; path: string | null } }) {
  const reports = useQuery(testReportsQuery(fullPath, iid, pipeline));
  const [expanded, setExpanded] = useState(false);
  const [shown, setShown] = useState<ComparedTestCase | null>(null);

  if (reports.isPending || reports.data?.kind === 'parsing') {
    return (
      <section aria-label={TEST_SUMMARY.label} aria-busy="true" className={styles.report}>
        <div className={styles.header}>
          <Spinner size="small" />
          <span>{TEST_SUMMARY.loading}</span>
        </div>
      </section>
    );
  }
  if (reports.isError) {
    return (
      <section aria-label={TEST_SUMMARY.label} className={styles.report}>
        <div className={styles.header}>
          <XCircleIcon className={styles.failed} aria-hidden="true" />
          <span>{TEST_SUMMARY.error}</span>
        </div>
      </section>
    );
  }
  if (reports.data.kind === 'none') return null;

  const { comparison } = reports.data;
  const tone = summaryTone(comparison);
  const Icon = TONE_ICON[tone];
  const collapsible = comparison.suites.length > 0;
  return (
    <section aria-label={TEST_SUMMARY.label} className={styles.report}>
      <div className={styles.header}>
        <Icon className={styles[tone]} aria-label={tone} />
        <span className={styles.title}>{summaryText(comparison.summary)}</span>
        {pipeline.path ? (
          <Link href={`${pipeline.path}/test_report`} className={styles.action}>
            {TEST_SUMMARY.fullReport}
          </Link>
        ) : null}
        {collapsible ? (
          <Button
            size="small"
            variant="invisible"
            aria-expanded={expanded}
            aria-label={expanded ? 'Collapse test summary' : 'Expand test summary'}
            leadingVisual={expanded ? ChevronDownIcon : ChevronRightIcon}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? 'Collapse' : 'Expand'}
          </Button>
        ) : null}
      </div>
      {expanded ? (
        <ul className={styles.suites} aria-label="Test suites">
          {comparison.suites.map((suite) => (
            <SuiteRow key={suite.name} suite={suite} onShow={setShown} />
          ))}
        </ul>
      ) : null}
      {shown ? <TestCaseDetails testCase={shown} onClose={() => setShown(null)} /> : null}
    </section>
  );
}

function SuiteRow({ suite, onShow }: { suite: ComparedSuite; onShow: (testCase: ComparedTestCase) => void }) {
  const cases = suiteCases(suite);
  const SuiteIcon = suite.status === 'success' ? CheckCircleIcon : XCircleIcon;
  return (
    <li className={styles.suite}>
      <div className={styles.suiteHeader}>
        <SuiteIcon className={suite.status === 'success' ? styles.success : styles.failed} aria-hidden="true" />
        <span>{suiteText(suite)}</span>
      </div>
      {cases.length > 0 ? (
        <ul className={styles.cases} aria-label={`${suite.name} test cases`}>
          {cases.map(({ section, testCase }, index) => {
            // a header opens the new and the fixed sections, as in GitLab's widget
            const header = index === 0 || cases[index - 1]!.section !== section ? (section === 'new' ? TEST_SUMMARY.newHeader : section === 'fixed' ? TEST_SUMMARY.fixedHeader : null) : null;
            return (
              <li key={`${section}-${testCase.classname}-${testCase.name}-${index}`} className={styles.case} data-section={section}>
                {header ? <strong className={styles.sectionHeader}>{header}</strong> : null}
                <div className={styles.caseRow}>
                  {section === 'fixed' ? <CheckCircleIcon className={styles.success} aria-hidden="true" /> : <XCircleIcon className={styles.failed} aria-hidden="true" />}
                  <span className={styles.caseName}>{testCase.name}</span>
                  <Button size="small" onClick={() => onShow(testCase)} aria-label={`${TEST_SUMMARY.viewDetails}: ${testCase.name}`}>
                    {TEST_SUMMARY.viewDetails}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}

/** GitLab's test case details modal: the class as its title; name, file, execution time, attachment, system output. */
function TestCaseDetails({ testCase, onClose }: { testCase: ComparedTestCase; onClose: () => void }) {
  return (
    <Dialog title={testCase.classname} onClose={onClose} width="xlarge" footerButtons={[{ content: 'Close', buttonType: 'primary', onClick: onClose }]}>
      <dl className={styles.facts}>
        <dt>Name</dt>
        <dd>{testCase.name}</dd>
        {testCase.file ? (
          <>
            <dt>File</dt>
            <dd className={styles.mono}>{testCase.file}</dd>
          </>
        ) : null}
        <dt>Execution time</dt>
        <dd>{testCase.execution_time ? `${testCase.execution_time} s` : null}</dd>
        {testCase.attachment_url ? (
          <>
            <dt>Attachment</dt>
            <dd>
              <Link href={testCase.attachment_url} target="_blank" className={styles.wrap}>
                {testCase.attachment_url}
              </Link>
            </dd>
          </>
        ) : null}
        {testCase.system_output ? (
          <>
            <dt>System output</dt>
            <dd>
              <pre className={styles.output} aria-label="System output">
                {testCase.system_output}
              </pre>
            </dd>
          </>
        ) : null}
      </dl>
    </Dialog>
  );
}
