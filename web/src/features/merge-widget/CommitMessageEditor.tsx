import { FormControl, Textarea } from '@primer/react';
import { commitMessageRows } from './merge-button';

/** One commit message textarea: required, 7 rows, growing to at most 32. */
export function CommitMessageEditor({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <FormControl required>
      <FormControl.Label requiredIndicator={false}>{label}</FormControl.Label>
      <Textarea block resize="vertical" rows={commitMessageRows(value)} value={value} onChange={(event) => onChange(event.target.value)} />
    </FormControl>
  );
}
