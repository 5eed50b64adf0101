import { splitSuggestions } from '@tributary/contracts/suggestions';
import { MarkdownBody } from '../markdown';
import type { NoteTarget } from '../notes';
import type { SuggestionEntity } from './api';
import { SuggestionBlock } from './SuggestionBlock';

/**
 * A note's body with its suggestion fences drawn as proposed changes (GitLab replaces each
 * `pre.language-suggestion` the same way); the rest is Markdown as usual. A note without
 * suggestions is just its Markdown.
 */
export function SuggestedNoteBody({ note, target, discussionId }: { note: { body: string; suggestions?: SuggestionEntity[] }; target: NoteTarget; discussionId: string }) {
  const suggestions = note.suggestions ?? [];
  if (suggestions.length === 0) return <MarkdownBody text={note.body} project={target.projectId} />;
  return (
    <div>
      {splitSuggestions(note.body).map((segment, i) => {
        if (segment.kind === 'markdown') return segment.text.trim() === '' ? null : <MarkdownBody key={i} text={segment.text} project={target.projectId} />;
        const suggestion = suggestions[segment.index];
        // rows follow the fences one for one; a missing row shows the fence as the code it is
        if (!suggestion) return <MarkdownBody key={i} text={`\`\`\`\n${segment.text}\n\`\`\``} project={target.projectId} />;
        return <SuggestionBlock key={i} suggestion={suggestion} target={target} discussionId={discussionId} />;
      })}
    </div>
  );
}
