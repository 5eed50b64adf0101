import { Button, Dialog, FormControl, Heading, Text, TextInput } from '@primer/react';
import { useState } from 'react';
import { FormError } from '../../components/FormError';
import styles from './Settings.module.css';

/**
 * GitLab's delete confirmation for a project or a group: 'Are you absolutely sure?', and the
 * button works only once the full path is typed out.
 */
export function DeleteWithConfirmation(props: {
  /** 'project' or 'group': the heading, the buttons and the error name it */
  kind: 'project' | 'group';
  /** what must be typed: the full path */
  path: string;
  /** the paragraph under the heading: what goes with it */
  consequence: string;
  /** a sentence above the confirmation field, if any */
  warning?: string;
  deleting: boolean;
  error: unknown;
  onDelete: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const confirmed = typed === props.path;
  return (
    <div className={styles.danger}>
      <Heading as="h3" variant="small">
        Delete {props.kind}
      </Heading>
      <Text as="p" className={styles.muted}>
        {props.consequence}
      </Text>
      <div>
        <Button variant="danger" onClick={() => setOpen(true)}>
          Delete {props.kind}
        </Button>
      </div>
      {open ? (
        <Dialog title="Are you absolutely sure?" onClose={() => setOpen(false)} width="medium">
          <form
            className={styles.form}
            onSubmit={(event) => {
              event.preventDefault();
              if (confirmed) props.onDelete();
            }}
          >
            <FormError error={props.error} title={`The ${props.kind} could not be deleted.`} />
            {props.warning ? <p>{props.warning}</p> : null}
            <FormControl>
              <FormControl.Label>
                Enter the following to confirm: <code>{props.path}</code>
              </FormControl.Label>
              <TextInput block autoFocus value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
            </FormControl>
            <div>
              <Button type="submit" variant="danger" disabled={!confirmed} loading={props.deleting}>
                Yes, delete {props.kind}
              </Button>
            </div>
          </form>
        </Dialog>
      ) : null}
    </div>
  );
}
