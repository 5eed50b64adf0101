import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import styles from './DiffNotes.module.css';

/** On a line's '+': the tooltip's text. */
export const LINE_TOOLTIP_ATTRIBUTE = 'data-line-tooltip';
/** How long the pointer rests on the '+' before the tooltip shows: not while it passes over the lines. */
const SHOW_DELAY_MS = 500;
/** Space between the tooltip and its line. */
const GAP = 4;

interface Shown {
  text: string;
  left: number;
  /** the line's top: the tooltip's bottom edge sits above it */
  above: number;
  /** the line's bottom, where it goes when there is no room above (under the app's bar) */
  below: number;
}

/**
 * The one tooltip of every line's comment button, drawn above the line (as GitLab's tooltip is), so
 * it never lies on the code of the line being commented on. One element for the whole diff, out of
 * the virtual list (whose items clip what leaves them): thousands of rows mount while it scrolls.
 * It shows when the pointer rests on a '+' or the keyboard focuses one, and goes when the pointer
 * presses or leaves, the page scrolls, or a comment form is open.
 */
export function LineTooltip({ formOpen }: { formOpen: boolean }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const formOpenRef = useRef(formOpen);
  formOpenRef.current = formOpen;

  useEffect(() => {
    if (formOpen) setShown(null);
  }, [formOpen]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const buttonOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>(`[${LINE_TOOLTIP_ATTRIBUTE}]`) : null);
    const hide = () => {
      clearTimeout(timer);
      setShown(null);
    };
    const show = (button: HTMLElement) => {
      clearTimeout(timer);
      if (formOpenRef.current || !button.isConnected) return;
      const box = button.closest('[data-point]')?.getBoundingClientRect() ?? button.getBoundingClientRect();
      const own = button.getBoundingClientRect();
      setShown({ text: button.getAttribute(LINE_TOOLTIP_ATTRIBUTE) ?? '', left: own.left, above: box.top, below: box.bottom });
    };
    const onOver = (event: PointerEvent) => {
      const button = buttonOf(event.target);
      if (!button) return;
      clearTimeout(timer);
      timer = setTimeout(() => show(button), SHOW_DELAY_MS);
    };
    const onOut = (event: PointerEvent) => {
      if (buttonOf(event.target) && !buttonOf(event.relatedTarget)) hide();
    };
    const onFocus = (event: FocusEvent) => {
      const button = buttonOf(event.target);
      if (button?.matches(':focus-visible')) show(button);
    };
    const onBlur = (event: FocusEvent) => {
      if (buttonOf(event.target)) hide();
    };
    document.addEventListener('pointerover', onOver);
    document.addEventListener('pointerout', onOut);
    document.addEventListener('pointerdown', hide, true);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', onBlur);
    window.addEventListener('scroll', hide, { passive: true });
    return () => {
      clearTimeout(timer);
      document.removeEventListener('pointerover', onOver);
      document.removeEventListener('pointerout', onOut);
      document.removeEventListener('pointerdown', hide, true);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', onBlur);
      window.removeEventListener('scroll', hide);
    };
  }, []);

  if (!shown) return null;
  // Above the line unless that is under the app's sticky bar; then below it.
  const bar = document.querySelector('[data-sticky-top]')?.getBoundingClientRect().bottom ?? 0;
  const roomAbove = shown.above - bar > 2 * GAP + 24;
  const style = roomAbove ? { left: shown.left, top: shown.above - GAP, transform: 'translateY(-100%)' } : { left: shown.left, top: shown.below + GAP };
  return createPortal(
    <div role="tooltip" className={styles.lineTooltip} style={style}>
      {shown.text}
    </div>,
    document.body,
  );
}
