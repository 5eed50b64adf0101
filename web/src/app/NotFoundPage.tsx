import { QuestionIcon } from '@primer/octicons-react';
import { useLocation } from 'react-router-dom';
import { LinkButton } from '../components/AppLink';
import { EmptyState } from '../components/EmptyState';
import { useDocumentTitle } from '../components/useDocumentTitle';
import { useOptionalUser } from '../features/session';
import { urls } from '../lib/routes';

/**
 * A missing page, and equally a private one: the text never says which. A signed-out visitor
 * is offered 'Sign in' (and back here), since the page may exist for members.
 */
export function NotFoundPage() {
  const user = useOptionalUser();
  const { pathname, search, hash } = useLocation();
  useDocumentTitle(['Page not found']);
  return (
    <EmptyState
      icon={QuestionIcon}
      title="Page not found"
      description="Make sure the address is correct and the page hasn't moved, or that you have permission to see it."
    >
      {user ? <LinkButton to="/">Go to your projects</LinkButton> : <LinkButton variant="primary" to={urls.signIn(pathname + search + hash)}>Sign in</LinkButton>}
    </EmptyState>
  );
}
