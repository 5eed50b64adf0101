import { Button, Link } from '@primer/react';
import type { ComponentProps, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

/** Primer's Link, navigating through the router. */
export function AppLink({ to, children, ...rest }: { to: string; children: ReactNode } & Omit<ComponentProps<typeof Link>, 'href' | 'as'>) {
  return (
    <Link as={RouterLink} to={to} {...rest}>
      {children}
    </Link>
  );
}

type ButtonProps = ComponentProps<typeof Button>;

/** Primer's Button styles on a router link. */
export function LinkButton({
  to,
  children,
  variant,
  size,
  leadingVisual,
  'aria-label': ariaLabel,
}: {
  to: string;
  children: ReactNode;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  leadingVisual?: ButtonProps['leadingVisual'];
  'aria-label'?: string;
}) {
  return (
    <Button as={RouterLink} to={to} variant={variant} size={size} leadingVisual={leadingVisual} aria-label={ariaLabel}>
      {children}
    </Button>
  );
}
