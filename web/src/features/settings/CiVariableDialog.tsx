import { maskedValueProblem, variableKeyProblem } from '@tributary/contracts';
import { Button, Checkbox, Dialog, FormControl, Radio, RadioGroup, Select, Textarea, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormError } from '../../components/FormError';
import { ciVariableKeys, createCiVariableMutation, updateCiVariableMutation, type CiVariable, type VariableOwner } from './ci-variables-api';
import styles from './CiVariables.module.css';

type Visibility = 'visible' | 'masked' | 'masked_and_hidden';

const visibilityOf = (variable: CiVariable | null): Visibility => (variable?.hidden ? 'masked_and_hidden' : variable?.masked ? 'masked' : 'visible');

/**
 * "Add variable" / "Edit variable": GitLab's variable form. The key and masking rules are the
 * server's own (@tributary/contracts) and show under their fields as they are typed; the server's
 * answer (a taken key, say) shows above the form. A hidden variable's value is never shown:
 * leaving it empty keeps it.
 */
export function CiVariableDialog({ owner, variable, onClose }: { owner: VariableOwner; variable: CiVariable | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const editing = variable !== null;
  const [key, setKey] = useState(variable?.key ?? '');
  const [value, setValue] = useState(variable?.value ?? '');
  const [type, setType] = useState<CiVariable['variable_type']>(variable?.variable_type ?? 'env_var');
  const [scope, setScope] = useState(variable?.environment_scope ?? '*');
  const [visibility, setVisibility] = useState<Visibility>(visibilityOf(variable));
  const [isProtected, setProtected] = useState(variable?.protected ?? false);
  const [expand, setExpand] = useState(variable ? !variable.raw : true);
  const [description, setDescription] = useState(variable?.description ?? '');
  const [tried, setTried] = useState(false);
  const done = {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ciVariableKeys.list(owner) });
      onClose();
    },
  };
  const create = useMutation({ ...createCiVariableMutation(owner), ...done });
  const update = useMutation({ ...updateCiVariableMutation(owner), ...done });
  const saving = create.isPending || update.isPending;

  const keepsHiddenValue = editing && variable.hidden && value === '';
  const keyProblem = editing ? null : variableKeyProblem(key.trim());
  const masked = visibility !== 'visible';
  const valueProblem = masked && !keepsHiddenValue ? maskedValueProblem(value, !expand) : null;
  const scopeProblem = scope.trim() === '' ? 'Enter an environment name or *.' : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (keyProblem || valueProblem || scopeProblem) return;
    const body = {
      ...(keepsHiddenValue ? {} : { value }),
      variable_type: type,
      protected: isProtected,
      masked,
      raw: !expand,
      environment_scope: scope.trim(),
      description,
    };
    if (editing) update.mutate({ variable, body });
    else create.mutate({ key: key.trim(), value, ...body, masked_and_hidden: visibility === 'masked_and_hidden' });
  }

  return (
    <Dialog title={editing ? 'Edit variable' : 'Add variable'} onClose={onClose} width="large">
      <form onSubmit={submit} className={styles.dialogForm} noValidate aria-label={editing ? 'Edit variable' : 'Add variable'}>
        <FormError error={create.error ?? update.error} title="The variable could not be saved." />
        <FormControl>
          <FormControl.Label>Type</FormControl.Label>
          <Select value={type} onChange={(event) => setType(event.target.value as CiVariable['variable_type'])}>
            <Select.Option value="env_var">Variable (default)</Select.Option>
            <Select.Option value="file">File</Select.Option>
          </Select>
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Environments</FormControl.Label>
          <TextInput block value={scope} onChange={(event) => setScope(event.target.value)} />
          {tried && scopeProblem ? (
            <FormControl.Validation variant="error">{scopeProblem}</FormControl.Validation>
          ) : (
            <FormControl.Caption>* for all environments, an environment name, or a wildcard such as review/*.</FormControl.Caption>
          )}
        </FormControl>
        <RadioGroup name="visibility" onChange={(selected) => setVisibility((selected as Visibility | null) ?? 'visible')}>
          <RadioGroup.Label>Visibility</RadioGroup.Label>
          <FormControl disabled={variable?.hidden === true}>
            <Radio value="visible" checked={visibility === 'visible'} />
            <FormControl.Label>Visible</FormControl.Label>
            <FormControl.Caption>Can be seen in job logs.</FormControl.Caption>
          </FormControl>
          <FormControl disabled={variable?.hidden === true}>
            <Radio value="masked" checked={visibility === 'masked'} />
            <FormControl.Label>Masked</FormControl.Label>
            <FormControl.Caption>Masked in job logs but value can be revealed in CI/CD settings.</FormControl.Caption>
          </FormControl>
          <FormControl disabled={editing}>
            <Radio value="masked_and_hidden" checked={visibility === 'masked_and_hidden'} />
            <FormControl.Label>Masked and hidden</FormControl.Label>
            <FormControl.Caption>Masked in job logs, and can never be revealed in the CI/CD settings after the variable is saved.</FormControl.Caption>
          </FormControl>
        </RadioGroup>
        <fieldset className={styles.flags}>
          <legend>Flags</legend>
          <FormControl>
            <Checkbox checked={isProtected} onChange={(event) => setProtected(event.target.checked)} />
            <FormControl.Label>Protect variable</FormControl.Label>
            <FormControl.Caption>Export variable to pipelines running on protected branches and tags only.</FormControl.Caption>
          </FormControl>
          <FormControl>
            <Checkbox checked={expand} onChange={(event) => setExpand(event.target.checked)} />
            <FormControl.Label>Expand variable reference</FormControl.Label>
            <FormControl.Caption>$ will be treated as the start of a reference to another variable.</FormControl.Caption>
          </FormControl>
        </fieldset>
        <FormControl>
          <FormControl.Label>Description (optional)</FormControl.Label>
          <TextInput block value={description} onChange={(event) => setDescription(event.target.value)} />
        </FormControl>
        <FormControl required disabled={editing}>
          <FormControl.Label requiredIndicator={false}>Key</FormControl.Label>
          <TextInput block value={key} onChange={(event) => setKey(event.target.value)} autoFocus={!editing} />
          {keyProblem && (tried || key !== '') ? (
            <FormControl.Validation variant="error">Key {keyProblem}</FormControl.Validation>
          ) : (
            <FormControl.Caption>Letters, digits and _ only.</FormControl.Caption>
          )}
        </FormControl>
        <FormControl>
          <FormControl.Label>Value</FormControl.Label>
          <Textarea
            block
            value={value}
            onChange={(event) => setValue(event.target.value)}
            className={styles.value}
            placeholder={editing && variable.hidden ? 'The value is masked and hidden: leave empty to keep it' : undefined}
          />
          {valueProblem && (tried || value !== '') ? <FormControl.Validation variant="error">{valueProblem}</FormControl.Validation> : null}
          {masked && !valueProblem ? <FormControl.Caption>The value will be masked in job logs.</FormControl.Caption> : null}
        </FormControl>
        <div className={styles.actions}>
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" loading={saving}>
            {editing ? 'Save changes' : 'Add variable'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
