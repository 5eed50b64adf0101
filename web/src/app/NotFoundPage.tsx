import { QuestionIcon } from '@primer/octicons-react';
import { LinkButton } from '../components/AppLink';
import { EmptyState } from '../components/EmptyState';

export function NotFoundPage() {
  return (
    <EmptyState
      icon={QuestionIcon}
      title="Page not found"
      description="Make sure the address is correct and the page hasn't moved, or that you have permission to see it."
    >
      <LinkButton to="/">Go to your projects</LinkButton>
    </EmptyState>
  );
}
