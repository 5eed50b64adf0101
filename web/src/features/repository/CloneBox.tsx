import { TextInput } from '@primer/react';
import { useId } from 'react';
import { CopyButton } from '../../components/CopyButton';
import styles from './CloneBox.module.css';

/** "Clone with HTTP": the project's http_url_to_repo, selectable, with a copy button. */
export function CloneBox({ url }: { url: string }) {
  const id = useId();
  return (
    <div className={styles.box}>
      <label htmlFor={id} className={styles.label}>
        Clone with HTTP
      </label>
      <TextInput id={id} readOnly value={url} className={styles.input} monospace size="small" onFocus={(event) => event.currentTarget.select()} />
      <CopyButton text={url} label="Copy URL" size="small" />
    </div>
  );
}
