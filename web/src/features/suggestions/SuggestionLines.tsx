import { t } from '@tributary/contracts/i18n';
import { suggestionLines } from './suggestion-diff';
import type { SuggestionEntity } from './model';
import styles from './Suggestions.module.css';

/** A suggestion's proposed change as GitLab draws it: the current lines in red, the suggested ones in green. */
export function SuggestionLines({ suggestion }: { suggestion: Pick<SuggestionEntity, 'from_line' | 'from_content' | 'to_content'> }) {
  return (
    <table className={styles.lines} aria-label={t('Suggested change')}>
      <tbody>
        {suggestionLines(suggestion).map((line, i) => (
          <tr key={i} className={line.type === 'old' ? styles.old : styles.new} data-line-type={line.type}>
            <td className={styles.number}>{line.type === 'old' ? line.number : ''}</td>
            <td className={styles.number}>{line.type === 'new' ? line.number : ''}</td>
            <td className={styles.sign}>{line.type === 'old' ? '-' : '+'}</td>
            <td>{line.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
