import { IconButton, type IconButtonProps } from '@primer/react';
import { useRef, useState, type ReactNode, type RefObject } from 'react';

export interface OverlayControls {
  /** the button, for the overlay's `anchorRef` (it positions the overlay and gets the focus back) */
  anchorRef: RefObject<HTMLButtonElement | null>;
  /** `setOpen(false)` closes the overlay (its onClose / onOpenChange) */
  setOpen: (open: boolean) => void;
}

/**
 * A small invisible icon button whose overlay (an ActionMenu, an AnchoredOverlay) mounts only
 * while it is open: a page shows such a button on every note, and a closed Primer overlay costs
 * render time on each. The button behaves as the overlays' own anchors do: a click
 * toggles, the down arrow opens, and `aria-expanded` says which.
 */
export function OverlayButton({
  icon,
  'aria-label': label,
  className,
  children,
}: {
  icon: IconButtonProps['icon'];
  'aria-label': string;
  className?: string;
  /** the overlay, called only while open */
  children: (controls: OverlayControls) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const anchorRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <IconButton
        ref={anchorRef}
        icon={icon}
        size="small"
        variant="invisible"
        aria-label={label}
        aria-haspopup="true"
        aria-expanded={open}
        className={className}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      />
      {open ? children({ anchorRef, setOpen }) : null}
    </>
  );
}
