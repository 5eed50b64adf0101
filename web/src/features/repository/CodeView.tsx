import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { highlightLines } from './highlighter';
import styles from './CodeView.module.css';

/** `#L12` → 12. */
function lineFromHash(hash: string): number | null {
  const match = /^#L(\d+)$/.exec(hash);
  return match ? Number(match[1]) : null;
}

/** Highlighted source with line numbers that link to `#L<n>`. */
export function CodeView({ text, language, label }: { text: string; language: string | null; label: string }) {
  const { hash } = useLocation();
  const lines = useMemo(() => highlightLines(text, language), [text, language]);
  const selected = lineFromHash(hash);

  useEffect(() => {
    if (selected !== null) document.getElementById(`L${selected}`)?.scrollIntoView({ block: 'center' });
  }, [selected]);

  return (
    <div className={styles.scroller}>
      <table className={`${styles.code} hljs`} aria-label={label}>
        <tbody>
          {lines.map((html, index) => {
            const number = index + 1;
            return (
              <tr key={number} className={number === selected ? styles.selected : undefined}>
                <td className={styles.number}>
                  <a id={`L${number}`} href={`#L${number}`} aria-label={`Line ${number}`}>
                    {number}
                  </a>
                </td>
                {/* highlight.js output, or escapeHtml() of the text: escaped markup only. */}
                <td className={styles.line} dangerouslySetInnerHTML={{ __html: html || '\n' }} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
