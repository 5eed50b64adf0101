import { EyeClosedIcon, EyeIcon, PencilIcon, TrashIcon } from '@primer/octicons-react';
import { Button, IconButton, Label, Spinner, Text, useConfirm } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../components/FormError';
import { PageError } from '../../components/PageError';
import { CiVariableDialog } from './CiVariableDialog';
import { ciVariableKeys, ciVariablesQuery, deleteCiVariableMutation, type CiVariable, type VariableOwner } from './ci-variables-api';
import styles from './CiVariables.module.css';
import { SettingsSection } from './SettingsSection';

const rowId = (variable: CiVariable) => `${variable.key}\u0000${variable.environment_scope}`;
const environments = (scope: string) => (scope === '*' ? 'All (default)' : scope);

/** A value cell: `*****` until revealed; a hidden variable's value cannot be revealed at all. */
function ValueCell({ variable, revealed, onToggle }: { variable: CiVariable; revealed: boolean; onToggle: () => void }) {
  if (variable.hidden) return <span className={styles.muted}>Masked and hidden</span>;
  return (
    <span className={styles.valueCell}>
      <span aria-label={revealed ? `Value of ${variable.key}` : `Value of ${variable.key}, hidden`}>{revealed ? variable.value : '*****'}</span>
      <IconButton
        size="small"
        variant="invisible"
        icon={revealed ? EyeClosedIcon : EyeIcon}
        aria-label={revealed ? `Hide value of ${variable.key}` : `Reveal value of ${variable.key}`}
        onClick={onToggle}
      />
    </span>
  );
}

function VariablesTable({ owner, onEdit }: { owner: VariableOwner; onEdit: (variable: CiVariable) => void }) {
  const queryClient = useQueryClient();
  const confirm = useConfirm();
  const list = useQuery(ciVariablesQuery(owner));
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const remove = useMutation({
    ...deleteCiVariableMutation(owner),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ciVariableKeys.list(owner) }),
  });
  if (list.isPending) return <Spinner size="small" aria-label="Loading variables" />;
  if (list.isError) return <PageError title="Variables could not be loaded." error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <Text className={styles.muted}>There are no variables yet.</Text>;
  const toggle = (variable: CiVariable) =>
    setRevealed((current) => {
      const next = new Set(current);
      if (!next.delete(rowId(variable))) next.add(rowId(variable));
      return next;
    });
  return (
    <>
      <FormError error={remove.error} title="The variable could not be deleted." />
      <table className={styles.table} aria-label="CI/CD variables">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Type</th>
            <th scope="col">Environments</th>
            <th scope="col">Attributes</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.map((variable) => (
            <tr key={rowId(variable)}>
              <td>
                <div className={styles.key}>{variable.key}</div>
                {variable.description ? <div className={styles.muted}>{variable.description}</div> : null}
              </td>
              <td>
                <ValueCell variable={variable} revealed={revealed.has(rowId(variable))} onToggle={() => toggle(variable)} />
              </td>
              <td>{variable.variable_type === 'file' ? 'File' : 'Variable'}</td>
              <td>{environments(variable.environment_scope)}</td>
              <td>
                <span className={styles.attributes}>
                  {variable.protected ? <Label variant="accent">Protected</Label> : null}
                  {variable.hidden ? <Label variant="attention">Hidden</Label> : variable.masked ? <Label variant="attention">Masked</Label> : null}
                  {variable.raw ? null : <Label>Expanded</Label>}
                </span>
              </td>
              <td>
                <span className={styles.rowActions}>
                  <IconButton size="small" icon={PencilIcon} aria-label={`Edit ${variable.key}`} onClick={() => onEdit(variable)} />
                  <IconButton
                    size="small"
                    variant="danger"
                    icon={TrashIcon}
                    aria-label={`Delete ${variable.key}`}
                    onClick={async () => {
                      const yes = await confirm({
                        title: 'Delete variable',
                        content: `Delete variable ${variable.key}${variable.environment_scope === '*' ? '' : ` (${variable.environment_scope})`}? Pipelines will no longer receive it.`,
                        confirmButtonContent: 'Delete variable',
                        confirmButtonType: 'danger',
                      });
                      if (yes) remove.mutate(variable);
                    }}
                  />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * The CI/CD settings' "Variables" section of a project or group (GitLab's project-level and
 * group-level variables APIs); the pages show it to Maintainers (project) and Owners (group) only.
 */
export function CiVariablesSection({ owner }: { owner: VariableOwner }) {
  // null: the dialog is closed; 'new': adding; a variable: editing it
  const [editing, setEditing] = useState<CiVariable | 'new' | null>(null);
  return (
    <SettingsSection
      title="Variables"
      description="Variables store information, like passwords and secret keys, that you can use in job scripts. Protected variables reach pipelines of protected branches and tags only; masked values are hidden in job logs."
      defaultExpanded
    >
      <div className={styles.dialogForm}>
        <div className={styles.toolbar}>
          <Text as="h3" weight="semibold">
            CI/CD Variables
          </Text>
          <Button onClick={() => setEditing('new')}>Add variable</Button>
        </div>
        <VariablesTable owner={owner} onEdit={setEditing} />
      </div>
      {editing !== null ? <CiVariableDialog owner={owner} variable={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </SettingsSection>
  );
}
