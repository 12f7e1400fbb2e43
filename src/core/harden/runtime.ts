// The runtime API for agent code that assembles prompts: add the immunity warning, wrap delegated content.
import { containsImmunityWarning } from './detect';
import { DELEGATION_BOUNDARY_LABEL, DELEGATION_CLOSE_TAG, DELEGATION_OPEN_TAG, MIND_VIRUS_IMMUNITY_WARNING } from './texts';

/** Returns the system prompt with the immunity warning in front; unchanged when it already carries the warning. */
export function withImmunityWarning(systemPrompt: string): string {
  if (containsImmunityWarning(systemPrompt)) return systemPrompt;
  return systemPrompt.trim() === '' ? MIND_VIRUS_IMMUNITY_WARNING : `${MIND_VIRUS_IMMUNITY_WARNING}\n\n${systemPrompt}`;
}

/**
 * Wraps delegated or peer content in the delegation boundary: the label, then the content between the tags.
 * Boundary tags inside the content are defused so the content cannot close the boundary early.
 */
export function wrapDelegatedTask(content: string): string {
  const defused = content.replace(/<(\s*\/?\s*delegated[_-]task)/gi, '&lt;$1');
  return `${DELEGATION_BOUNDARY_LABEL}\n${DELEGATION_OPEN_TAG}\n${defused}\n${DELEGATION_CLOSE_TAG}`;
}
