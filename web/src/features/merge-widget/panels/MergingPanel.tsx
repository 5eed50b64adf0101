import { useEffect, useState } from 'react';
import { MERGING_PHRASE_MS, MERGING_PHRASES, nextPhraseIndex } from '../merging-messages';
import { RichMessage } from '../RichMessage';
import { StatePanel } from '../StatePanel';

/** A merge is running: one of the nine 'Merging!' phrases, the next one every few seconds. */
export function MergingPanel() {
  const [index, setIndex] = useState(() => Math.floor(Math.random() * MERGING_PHRASES.length));
  useEffect(() => {
    const timer = window.setInterval(() => setIndex(nextPhraseIndex), MERGING_PHRASE_MS);
    return () => window.clearInterval(timer);
  }, []);
  const phrase = MERGING_PHRASES[index]!;
  return (
    <StatePanel
      status="loading"
      title={
        <span data-testid="merging-phrase">
          <RichMessage message={phrase} wraps={{ bold: (text) => <strong>{text}</strong> }} />
        </span>
      }
    />
  );
}
