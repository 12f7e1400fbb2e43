// The analyze command's LLM flags (--scorer/--filter llm, endpoint, model, budget) and how they become guard options.
// The key comes only from the environment; the endpoint only from flags, never from a project file a repo could plant.
import { isLocalEndpoint } from '../core/llm/policy';
import { apiKeyFromEnv, createLlmGuard, DEFAULT_BASE_URL, openAiTransport, type LlmGuard } from '../node/llm/setup';
import { UsageError, type CliIo } from './command';

/** parseArgs options of the LLM flags. */
export const LLM_FLAGS = {
  scorer: { type: 'string' },
  filter: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'embed-model': { type: 'string' },
  'llm-samples': { type: 'string' },
  'llm-max-calls': { type: 'string' },
  'llm-max-tokens': { type: 'string' },
  'llm-timeout': { type: 'string' },
  'no-llm-cache': { type: 'boolean' },
} as const;

/** --help lines of the LLM flags. */
export const LLM_USAGE = `  --scorer llm|embedded   score agents with an LLM judge (default embedded)
  --filter llm|embedded   rehabilitate infected outputs with an LLM filter (default embedded)
  --base-url URL          OpenAI-compatible endpoint (default ${DEFAULT_BASE_URL}); key from
                          AGENT_IMMUNE_API_KEY or OPENAI_API_KEY (not needed for a local endpoint)
  --model NAME            chat model (default gpt-4o-mini)
  --embed-model NAME      embedding model for the judge's similarity evidence (default: embedded hashing)
  --llm-samples N         judgements averaged per agent per round (default 3)
  --llm-max-calls N       stop calling the LLM after N requests (result marked partial)
  --llm-max-tokens N      stop calling the LLM after N tokens (result marked partial)
  --llm-timeout S         per-request timeout in seconds (default 30)
  --no-llm-cache          do not read or write .agent-immune/cache/llm/ (without an API key
                          the cache is never used: a repository could plant its entries)`;

type LlmFlagValues = { [K in keyof typeof LLM_FLAGS]?: (typeof LLM_FLAGS)[K]['type'] extends 'boolean' ? boolean : string };

/** The guard options the flags ask for, and `finish` to stamp the analysis with the LLM report and warnings. */
export type CliLlm = Pick<LlmGuard, 'guard' | 'finish'>;

/** Builds the LLM parts from the flags, or undefined when both parts stay embedded. */
export function llmGuardFromFlags(values: LlmFlagValues, io: CliIo): CliLlm | undefined {
  const scorer = part(values.scorer, '--scorer');
  const filter = part(values.filter, '--filter');
  if (!scorer && !filter) {
    if (values['base-url'] !== undefined || values.model !== undefined || values['embed-model'] !== undefined) throw new UsageError('--base-url, --model and --embed-model need --scorer llm or --filter llm');
    return undefined;
  }
  const apiKey = apiKeyFromEnv(io.env);
  const transport = openAiTransport({ baseURL: values['base-url'], model: values.model, embeddingModel: values['embed-model'], apiKey, timeoutMs: timeoutSeconds(values['llm-timeout']) * 1000 || undefined });
  const plan = {
    scorer,
    filter,
    samples: count(values['llm-samples'], '--llm-samples') || undefined,
    // Without a key the cache scope holds no secret, so a repository could commit the entries: no cache then.
    cacheRoot: values['no-llm-cache'] || !apiKey ? undefined : io.cwd,
    session: {
      maxCalls: optionalCount(values['llm-max-calls'], '--llm-max-calls'),
      maxTokens: optionalCount(values['llm-max-tokens'], '--llm-max-tokens'),
      secrets: apiKey ? [apiKey] : [],
    },
  };
  if ('code' in transport) {
    // No usable endpoint (no key for a remote URL, bad URL): the analysis stays embedded and says why, once.
    const warning = { code: transport.code, line: 0, message: transport.message };
    return {
      guard: {},
      finish(analysis) {
        analysis.warnings.push(warning);
        return analysis;
      },
    };
  }
  const baseURL = values['base-url'] ?? DEFAULT_BASE_URL;
  if (!isLocalEndpoint(baseURL)) io.stderr(`agent-immune analyze: sending agent outputs of this trace to ${new URL(baseURL).host} (model ${transport.model})\n`);
  return createLlmGuard(transport, plan);
}

function part(value: string | undefined, flag: string): boolean {
  if (value === undefined || value === 'embedded') return false;
  if (value === 'llm') return true;
  throw new UsageError(`${flag} must be llm or embedded`);
}

function count(value: string | undefined, flag: string): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number`);
  return n;
}

/** --llm-timeout in seconds: 0.1 s to one day (a timer takes at most about 24.8 days; beyond it Node refuses the delay). */
function timeoutSeconds(value: string | undefined): number {
  const seconds = count(value, '--llm-timeout');
  if (value !== undefined && (seconds < 0.1 || seconds > 86_400)) throw new UsageError('--llm-timeout must be between 0.1 and 86400 seconds');
  return seconds;
}

function optionalCount(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : Math.floor(count(value, flag));
}
