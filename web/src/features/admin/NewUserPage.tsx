import { Button, Checkbox, FormControl, PageHeader, Stack, TextInput } from '@primer/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { LinkButton } from '../../components/AppLink';
import { FormError, fieldError } from '../../components/FormError';
import formStyles from '../../components/FormLayout.module.css';
import { useCurrentUser } from '../session';
import { adminUserKeys, createUserMutation } from './api';
import { useDocumentTitle } from '../../components/useDocumentTitle';

/** GitLab's minimum password length. */
const MIN_PASSWORD_LENGTH = 8;

function Validation({ error, field }: { error: unknown; field: string }) {
  const message = fieldError(error, field);
  return message ? <FormControl.Validation variant="error">{message}</FormControl.Validation> : null;
}

/** `/admin/users/new`: create an account (administrators only). */
export function NewUserPage() {
  useDocumentTitle(['New user', 'Users', 'Admin area']);
  const me = useCurrentUser();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', username: '', email: '', password: '', admin: false });
  const create = useMutation({
    ...createUserMutation(),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: adminUserKeys.all });
      void navigate('/admin/users', { state: { createdUser: created.username } });
    },
  });
  if (!me.is_admin) return <NotFoundPage />;

  const set = (key: keyof typeof form) => (event: ChangeEvent<HTMLInputElement>) =>
    setForm((current) => ({ ...current, [key]: key === 'admin' ? event.target.checked : event.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({
      name: form.name.trim(),
      username: form.username.trim(),
      email: form.email.trim(),
      password: form.password,
      admin: form.admin,
      skip_confirmation: true,
    });
  }

  const complete = form.name.trim() && form.username.trim() && form.email.trim() && form.password.length >= MIN_PASSWORD_LENGTH;
  return (
    <Stack gap="normal">
      <PageHeader>
        <PageHeader.TitleArea>
          <PageHeader.Title as="h1">New user</PageHeader.Title>
        </PageHeader.TitleArea>
      </PageHeader>
      <form className={formStyles.form} onSubmit={submit} noValidate>
        <FormError error={create.error} title="The user could not be created." />
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Name</FormControl.Label>
          <TextInput block autoFocus value={form.name} onChange={set('name')} />
          <Validation error={create.error} field="name" />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Username</FormControl.Label>
          <TextInput block value={form.username} onChange={set('username')} autoComplete="off" />
          <Validation error={create.error} field="username" />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Email</FormControl.Label>
          <TextInput block type="email" value={form.email} onChange={set('email')} autoComplete="off" />
          <Validation error={create.error} field="email" />
        </FormControl>
        <FormControl required>
          <FormControl.Label requiredIndicator={false}>Password</FormControl.Label>
          <TextInput block type="password" value={form.password} onChange={set('password')} autoComplete="new-password" />
          {fieldError(create.error, 'password') ? (
            <Validation error={create.error} field="password" />
          ) : (
            <FormControl.Caption>{`Must be at least ${MIN_PASSWORD_LENGTH} characters.`}</FormControl.Caption>
          )}
        </FormControl>
        <FormControl>
          <Checkbox checked={form.admin} onChange={set('admin')} />
          <FormControl.Label>Administrator</FormControl.Label>
          <FormControl.Caption>Administrators have access to all groups, projects and users and can manage all features in this installation.</FormControl.Caption>
        </FormControl>
        <div className={formStyles.actions}>
          <Button type="submit" variant="primary" loading={create.isPending} disabled={!complete}>
            Create user
          </Button>
          <LinkButton to="/admin/users">Cancel</LinkButton>
        </div>
      </form>
    </Stack>
  );
}
