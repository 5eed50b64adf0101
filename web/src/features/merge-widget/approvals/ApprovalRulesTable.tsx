import { approvalRuleState, type WidgetApprovalRule } from '@tributary/contracts/merge-widget';
import { t } from '@tributary/contracts/i18n';
import { ruleStateLabel, sortRules } from './approvals-summary';
import { ApproverAvatars } from './ApproverAvatars';
import styles from './Approvals.module.css';
import { APPROVALS_MSG as M } from './messages';

const STATE_CLASS = { approved: styles.approved, auto_approved: styles.auto, action_required: styles.action, pending: styles.muted } as const;

function ruleTitle(rule: WidgetApprovalRule): string {
  if (rule.type === 'ANY_APPROVER' || rule.fallback) return t(M.allEligibleUsers);
  return rule.name;
}

/** The rules table: code owners first, then by name and section; each rule's approvers, count and state. */
export function ApprovalRulesTable({ rules }: { rules: readonly WidgetApprovalRule[] }) {
  return (
    <table className={styles.rules} aria-label={t(M.columnRule)}>
      <thead>
        <tr>
          <th scope="col">{t(M.columnRule)}</th>
          <th scope="col">{t(M.columnApprovals)}</th>
          <th scope="col">{t(M.columnApprovedBy)}</th>
        </tr>
      </thead>
      <tbody>
        {sortRules(rules).map((rule, index) => {
          const state = approvalRuleState(rule);
          return (
            <tr key={rule.id ?? `${rule.name}-${index}`}>
              <td>
                <div className={styles.ruleName}>
                  <span className={styles.strong}>{ruleTitle(rule)}</span>
                  {rule.section ? <span className={styles.muted}>{rule.section}</span> : null}
                  {rule.reportType === 'code_coverage' || rule.name === 'Coverage-Check' ? <span className={styles.muted}>{t(M.coverageCheckText)}</span> : null}
                  <ApproverAvatars users={rule.eligibleApprovers} label={`${ruleTitle(rule)}: eligible approvers`} />
                </div>
              </td>
              <td>
                <div className={styles.ruleName}>
                  <span>{rule.approvalsRequired === 0 ? t(M.optionalRule) : t(M.approvalsOf, { given: rule.approvedBy.nodes.length, required: rule.approvalsRequired })}</span>
                  <span className={STATE_CLASS[state]}>{ruleStateLabel(rule)}</span>
                </div>
              </td>
              <td>
                <ApproverAvatars users={rule.approvedBy.nodes} label={`${ruleTitle(rule)}: approved by`} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
