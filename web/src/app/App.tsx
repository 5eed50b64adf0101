import { BaseStyles } from '@primer/react';
// The `next` ThemeProvider: the same colour mode attributes without the deprecated JavaScript theme,
// whose colour tables (270 KB) were the larger part of the main bundle; no component here reads them.
import { ThemeProvider } from '@primer/react/next';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from './client';
import { router } from './router';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider colorMode="light">
        <BaseStyles>
          <RouterProvider router={router} />
        </BaseStyles>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
