import { GitBranchIcon } from '@primer/octicons-react';
import { Button, FormControl, Heading, TextInput } from '@primer/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { FormError } from '../../components/FormError';
import { safeRedirectPath } from '../../lib/routes';
import { sessionKeys, sessionQuery, signInMutation } from './api';
import styles from './SignInPage.module.css';
import { useDocumentTitle } from '../../components/useDocumentTitle';

export function SignInPage() {
  useDocumentTitle(['Sign in']);
  const [params] = useSearchParams();
  const redirect = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery());
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    ...signInMutation(),
    onSuccess: (data) => {
      queryClient.setQueryData(sessionKeys.current, data);
      void navigate(redirect, { replace: true });
    },
  });

  if (session.data) return <Navigate to={redirect} replace />;

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate({ login: login.trim(), password });
  }

  return (
    <div className={styles.page}>
      <main className={styles.card}>
        <div className={styles.brand}>
          <GitBranchIcon size={32} />
          <span>Tributary</span>
        </div>
        <Heading as="h1" variant="small" className={styles.title}>
          Sign in
        </Heading>
        <form onSubmit={submit} className={styles.form} noValidate>
          <FormError error={signIn.error} />
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Username or primary email</FormControl.Label>
            <TextInput
              block
              autoFocus
              autoComplete="username"
              value={login}
              onChange={(event) => setLogin(event.target.value)}
            />
          </FormControl>
          <FormControl required>
            <FormControl.Label requiredIndicator={false}>Password</FormControl.Label>
            <TextInput
              block
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </FormControl>
          <Button type="submit" variant="primary" block loading={signIn.isPending} disabled={!login.trim() || !password}>
            Sign in
          </Button>
        </form>
      </main>
    </div>
  );
}
