import { FormControl, TextInput } from '@primer/react';
import { CopyButton } from '../../components/CopyButton';
import styles from './CloneBox.module.css';

/** "Clone with HTTP": the project's http_url_to_repo, selectable, with a copy button. */
export function CloneBox({ url }: { url: string }) {
  return (
    <FormControl className={styles.box}>
      <FormControl.Label className={styles.label}>Clone with HTTP</FormControl.Label>
      <div className={styles.row}>
        <TextInput
          readOnly
          value={url}
          className={styles.input}
          monospace
          size="small"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={url} label="Copy URL" size="small" />
      </div>
    </FormControl>
  );
}
