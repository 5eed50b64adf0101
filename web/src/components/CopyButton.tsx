import { CheckIcon, CopyIcon } from '@primer/octicons-react';
import { IconButton } from '@primer/react';
import { useEffect, useState } from 'react';

/** How long the check mark stays after copying. */
export const COPIED_FEEDBACK_MS = 2000;

/** Copies text with the Clipboard API, or a hidden textarea where the API is absent. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Fallback for insecure contexts (plain HTTP on a LAN address), where the Clipboard API is absent.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/** An icon button that copies `text`; it announces "Copied" through its label. */
export function CopyButton({ text, label, size = 'medium' }: { text: string; label: string; size?: 'small' | 'medium' }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <IconButton
        icon={copied ? CheckIcon : CopyIcon}
        aria-label={copied ? 'Copied' : label}
        size={size}
        onClick={() => {
          void copyText(text).then(() => setCopied(true));
        }}
      />
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied to clipboard' : ''}
      </span>
    </>
  );
}
