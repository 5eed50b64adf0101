import { Blankslate } from '@primer/react/experimental';
import type { Icon } from '@primer/octicons-react';
import type { ReactNode } from 'react';

/** Primer's Blankslate with an icon, a heading, a sentence and optional actions (router links). */
export function EmptyState({
  icon: IconComponent,
  title,
  description,
  children,
  border = true,
}: {
  icon: Icon;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  border?: boolean;
}) {
  return (
    <Blankslate border={border} spacious>
      <Blankslate.Visual>
        <IconComponent size="medium" />
      </Blankslate.Visual>
      <Blankslate.Heading as="h2">{title}</Blankslate.Heading>
      {description ? <Blankslate.Description>{description}</Blankslate.Description> : null}
      {children ? <div className="blankslateActions">{children}</div> : null}
    </Blankslate>
  );
}
