import { Spinner, Stack, Text } from '@primer/react';

/** A centred spinner with a visible label, for whole-page or whole-section loading. */
export function PageLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Stack align="center" justify="center" padding="spacious" role="status" aria-live="polite">
      <Spinner size="medium" srText={null} />
      <Text size="small" className="fgMuted">
        {label}
      </Text>
    </Stack>
  );
}
