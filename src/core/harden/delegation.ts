// Which interpolated expressions carry delegated or peer content, and which are already wrapped in a boundary.

const SINGLE = new Set([
  'peer', 'peers', 'delegated', 'delegation', 'delegate', 'subtask', 'subtasks', 'handoff', 'upstream', 'forwarded',
  'relayed', 'inbox', 'incoming', 'neighbor', 'neighbors', 'neighbour', 'neighbours', 'subagent', 'subagents',
]);
const SOURCE = new Set(['agent', 'agents', 'worker', 'workers', 'child', 'teammate', 'sender', 'remote', 'other', 'previous', 'prior']);
const CONTENT = new Set([
  'output', 'outputs', 'reply', 'replies', 'response', 'responses', 'message', 'messages', 'result', 'results', 'answer', 'answers',
  'report', 'text', 'content', 'agent', 'agents',
]);

/** Lower-cased words of the names in an expression, split at snake_case, kebab-case and camelCase boundaries. */
export function nameWords(expression: string): string[] {
  const names = expression.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
  return names.flatMap((name) =>
    name
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .toLowerCase()
      .split(/[\s_$-]+/)
      .filter(Boolean),
  );
}

/** True when an interpolated expression names delegated or peer content (`peerReply`, `subtask`, `agent_output`, `{{ upstream }}`). */
export function isDelegatedExpression(expression: string): boolean {
  if (isWrappedExpression(expression)) return false;
  const words = nameWords(expression);
  return words.some((word, i) => SINGLE.has(word) || (i > 0 && SOURCE.has(words[i - 1]) && CONTENT.has(word) && words[i - 1] !== word));
}

/** True when the expression already passes through the runtime API (`wrapDelegatedTask(...)`, `wrap_delegated_task(...)`). */
export function isWrappedExpression(expression: string): boolean {
  return /\bwrap_?delegated_?task\s*\(/i.test(expression);
}
