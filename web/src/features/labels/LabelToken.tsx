import type { Label } from '../../lib/gitlab-types';
import { labelParts, safeColor } from './label-parts';
import styles from './LabelToken.module.css';

/**
 * A label as a coloured token; a scoped label `key::value` shows its key on the colour and
 * its value beside it, as GitLab draws them. The description is its tooltip.
 */
export function LabelToken({ label }: { label: Pick<Label, 'name' | 'color' | 'text_color' | 'description'> }) {
  const color = safeColor(label.color);
  const { key, value } = labelParts(label.name);
  return (
    <span className={styles.label} title={label.description ?? undefined} data-label={label.name}>
      <span className={styles.key} style={{ backgroundColor: color, color: safeColor(label.text_color) }}>
        {key}
      </span>
      {value !== null ? (
        <span className={styles.value} style={{ borderColor: color }}>
          {value}
        </span>
      ) : null}
    </span>
  );
}

/**
 * Labels drawn as tokens: objects as they are, titles with the project's colours (a title the
 * project no longer has is grey).
 */
export function LabelList({ names, labels }: { names: Array<string | Label>; labels?: Label[] }) {
  if (names.length === 0) return null;
  const resolve = (item: string | Label) =>
    typeof item !== 'string' ? item : (labels?.find((label) => label.name === item) ?? { name: item, color: '#868686', text_color: '#FFFFFF', description: null });
  return (
    <span className={styles.list}>
      {names.map((item) => {
        const label = resolve(item);
        return <LabelToken key={label.name} label={label} />;
      })}
    </span>
  );
}

/** A label's title, whether the entity gave titles or objects. */
export const labelName = (item: string | Label) => (typeof item === 'string' ? item : item.name);
