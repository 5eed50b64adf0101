/**
 * GitLab's Entities::Suggestion (lib/api/entities/suggestion.rb), field for field, plus what
 * GitLab's web serializer (SuggestionEntity) adds for its merge request page: why a suggestion
 * cannot be applied, and whether the reader may apply it.
 */
import type { SuggestionView } from '../../../domains/suggestions/suggestions.service.js';

export function suggestionEntity(suggestion: SuggestionView) {
  return {
    id: suggestion.id,
    from_line: suggestion.from_line,
    to_line: suggestion.to_line,
    appliable: suggestion.appliable,
    applied: suggestion.applied,
    from_content: suggestion.from_content,
    to_content: suggestion.to_content,
    // ours (GitLab's web entity): the tooltip of a disabled Apply button, and who may apply
    inapplicable_reason: suggestion.inapplicable_reason,
    current_user: { can_apply: suggestion.can_apply },
  };
}
