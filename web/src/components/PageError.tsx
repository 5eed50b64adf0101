import { AlertIcon } from '@primer/octicons-react';
import { Button, Flash, Stack } from '@primer/react';
import { errorMessage } from '../lib/api-error';

/** A failed load: what went wrong, in the server's words, and a way to try again. */
export function PageError({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  return (
    <Flash variant="danger" role="alert">
      <Stack direction="horizontal" align="center" justify="space-between" wrap="wrap">
        <Stack direction="horizontal" align="center" gap="condensed">
          <AlertIcon />
          <span>
            {title ? <strong>{title} </strong> : null}
            {errorMessage(error)}
          </span>
        </Stack>
        {onRetry ? (
          <Button size="small" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Flash>
  );
}
