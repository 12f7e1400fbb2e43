// The LLM rehabilitation filter: asks the LLM to clean an infected output, checks the result (not empty, task content
// kept, nothing new added) and otherwise falls back to the embedded filter, whose unusable result means replacement.
import { EmbeddedFilter } from '../../core/guard/filter';
import type { FilterResult, RehabFilter } from '../../core/guard/types';
import { checkFilterReply, toFilterResult } from '../../core/llm/checks';
import { FILTER_SCHEMA, filterMessages } from '../../core/llm/prompts';
import { parseFilterReply } from '../../core/llm/replies';
import type { TaskInfo } from '../../core/trace/types';
import { nonceOf } from './judge';
import type { LlmSession } from './session';

/** The LLM filter with its checks and its embedded fallback. */
export class LlmFilter implements RehabFilter {
  private llmResults = 0;
  private fallbackResults = 0;

  constructor(
    private readonly session: LlmSession,
    private readonly fallback: RehabFilter = new EmbeddedFilter(),
  ) {}

  /** "llm:<model>", "llm:<model>+embedded" when some outputs fell back, or the fallback's name when none used the LLM. */
  get name(): string {
    if (this.llmResults === 0) return this.fallback.name;
    return this.fallbackResults === 0 ? `llm:${this.session.model}` : `llm:${this.session.model}+${this.fallback.name}`;
  }

  async filter(text: string, task?: TaskInfo, signal?: AbortSignal): Promise<FilterResult> {
    const reply = text.trim() ? await this.session.completeJson('filter', 0, filterMessages(text, task, nonceOf({ text, task })), FILTER_SCHEMA, parseFilterReply, signal) : undefined;
    if (reply !== undefined) {
      const problems = checkFilterReply(text, reply);
      if (problems.length === 0) {
        this.llmResults++;
        return toFilterResult(text, reply);
      }
      this.session.warn('llm-filter-rejected', `an LLM-cleaned output failed the checks (${problems.join(', ')}); the embedded filter was used for it`);
    }
    this.fallbackResults++;
    return this.fallback.filter(text, task, signal);
  }
}
