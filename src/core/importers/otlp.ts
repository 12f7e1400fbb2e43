// OTLP JSON traces with the OpenTelemetry GenAI semantic conventions (and OpenInference attributes): each agent
// invocation span becomes the deliveries parent agent -> invoked agent (its input) and back (its output).
import { InputError } from '../errors';
import { TRACE_LIMITS } from '../trace/parse';
import type { TraceWarning } from '../trace/types';
import { holds, replaceEvery } from '../text/occurrences';
import { AgentRegistry, assignCausalRounds, inTimeOrder as deliveryOrder, asObject, asString, buildEpisode, contentText, dataText, lastMessageText, maybeJson, messageText, mentioned, toMillis, valueText, type Delivery } from './common';
import { graphEpisodes, graphPlace, nodeOutput, type RunInfo } from './langsmith';
import { callText, toolAgentId } from './toolChat';
import type { Episode, FormatSpec, Importer, JsonPath } from './types';

type Json = Record<string, unknown>;

/** The agent that sends a top-level invocation's input and receives its output. */
export const USER_AGENT = 'user';

/** What we keep of one span: ids, timing, the agent it names, and the text it carries. */
interface SpanInfo {
  traceId: string;
  spanId: string;
  parentId?: string;
  start: number;
  end: number;
  line: number;
  seq: number;
  /** What the span's own attributes say; `isAgent` is decided from it and the ancestors in `finish()`. */
  declaredAgent: boolean;
  /** Only OpenInference's span kind says it is an agent (no agent attribute names it): LangChain marks every runnable
   * named like "agent" so (`RunnableAssign<agent_scratchpad>`, `OpenAIToolsAgentOutputParser`). */
  agentByKindOnly: boolean;
  isAgent: boolean;
  agentName?: string;
  /** The span's name. */
  name: string;
  /** Where a LangGraph node's span sits in its graph (from its `metadata` attribute), if it is one. */
  graph?: Pick<RunInfo, 'node' | 'step' | 'namespace' | 'speaks' | 'tools' | 'calls'>;
  conversation?: string;
  input?: string;
  /** `input` is a call's arguments as JSON with no message text in them (Agno's `Agent.run`): its chat span says better. */
  inputIsArguments?: boolean;
  /** `input` is the context a CrewAI crew hands a task: earlier tasks' outputs, relayed as an orchestrator's hand-off is. */
  inputIsCrewContext?: boolean;
  /** A model call (an LLM span, a chat operation, or a span that names no kind: ADK's call_llm), whose input is a prompt. */
  chat: boolean;
  /** It says it is a model call (an OpenInference LLM span, a GenAI chat operation), not only by naming no kind. */
  modelCall: boolean;
  output?: string;
  systemPrompt?: string;
  /** The span carries a GenAI/OpenInference operation (so content could have been captured on it). */
  genAi: boolean;
  /** A tool's execution (an `execute_tool` span, an OpenInference TOOL span): its own input and output are these. */
  tool?: ToolRun;
  /** On a span none of whose content was read: attributes that hold text under names no reading here knows. */
  unread?: string[];
}

/** What a tool span records: the tool's name, the arguments it was called with, what it returned to the model. */
interface ToolRun {
  name: string;
  args?: string;
  result?: string;
}

/**
 * Spans by start, then end, then agent name; arrival order only for spans alike in all three. Batches from one exporter
 * can arrive in any order, and agents that start together (a hub's spokes) must not change places between two
 * receptions of the same run (their order breaks ties in the guard's sources and paths).
 */
function inTimeOrder(a: SpanInfo, b: SpanInfo): number {
  return a.start - b.start || a.end - b.end || (a.agentName ?? '').localeCompare(b.agentName ?? '') || a.seq - b.seq;
}

/** An OTLP list field: absent is empty, anything but an array is refused by name (the file reader's and the receiver's). */
export function otlpList(value: unknown, field: string, file?: string, line?: number): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InputError('invalid-field', `"${field}" must be an array; expected OTLP JSON (ExportTraceServiceRequest)`, file, line, field);
  return value;
}

/** Decodes an OTLP AnyValue ({stringValue}, {intValue}, {arrayValue}, ...) or passes a plain value through. */
export function anyValue(value: unknown): unknown {
  const v = asObject(value);
  if (!v) return value;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue;
  if ('bytesValue' in v) return v.bytesValue;
  if ('arrayValue' in v) {
    const values = asObject(v.arrayValue)?.values;
    return Array.isArray(values) ? values.map(anyValue) : [];
  }
  if ('kvlistValue' in v) return Object.fromEntries(attributeEntries(asObject(v.kvlistValue)?.values));
  return undefined;
}

/** Attribute list [{key, value}] (OTLP) or a plain {key: value} object, as entries. */
function attributeEntries(attributes: unknown): [string, unknown][] {
  if (Array.isArray(attributes)) {
    return attributes.flatMap((a) => {
      const kv = asObject(a);
      return kv && typeof kv.key === 'string' ? [[kv.key, anyValue(kv.value)] as [string, unknown]] : [];
    });
  }
  const o = asObject(attributes);
  return o ? Object.entries(o) : [];
}

/** A flattened span's attributes (`attributes.input.value`, as pandas writes a Phoenix spans dataframe), by their names. */
function prefixedAttributes(span: Json): Record<string, unknown> | undefined {
  const entries = Object.entries(span).filter(([key]) => key.startsWith('attributes.'));
  return entries.length > 0 ? Object.fromEntries(entries.map(([key, value]) => [key.slice('attributes.'.length), value])) : undefined;
}

/** Text of gen_ai.input.messages / gen_ai.output.messages (JSON text or structured), keeping the given roles. */
function genAiMessages(value: unknown, roles: string[]): string | undefined {
  const messages = maybeJson(value);
  if (typeof messages === 'string') return messages;
  return lastMessageText(messages, roles) ?? lastMessageText(messages);
}

/** OpenInference flattened messages: llm.output_messages.0.message.content ... */
function flattenedMessages(attrs: Map<string, unknown>, prefix: string, roles: string[]): string | undefined {
  type Flattened = { role?: string; content?: string; parts: Map<number, string> };
  const byIndex = new Map<number, Flattened>();
  for (const [key, value] of attrs) {
    if (!key.startsWith(prefix)) continue;
    // `N.message.content`, or a multi-part message's text parts `N.message.contents.M.message_content.text`.
    const match = /^(\d+)\.message\.(?:(role|content)|contents\.(\d+)\.message_content\.text)$/.exec(key.slice(prefix.length));
    if (!match) continue;
    const entry: Flattened = byIndex.get(Number(match[1])) ?? { parts: new Map() };
    if (match[2] === 'role') entry.role = String(value);
    else if (match[2] === 'content') entry.content = typeof value === 'string' ? value : undefined;
    else if (typeof value === 'string') entry.parts.set(Number(match[3]), value);
    byIndex.set(Number(match[1]), entry);
  }
  const ordered = [...byIndex.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, e]) => ({ role: e.role, content: e.content ?? ([...e.parts].sort((a, b) => a[0] - b[0]).map(([, text]) => text).join('\n') || undefined) }));
  const pick = [...ordered].reverse().find((e) => e.content && (!e.role || roles.includes(e.role))) ?? [...ordered].reverse().find((e) => e.content);
  return pick?.content;
}

/** Legacy OpenLLMetry attributes: gen_ai.prompt.N.content / gen_ai.completion.N.content (prefix ends with the dot). */
function legacyIndexed(attrs: Map<string, unknown>, prefix: string): string | undefined {
  let best: [number, string] | undefined;
  for (const [key, value] of attrs) {
    if (!key.startsWith(prefix) || typeof value !== 'string') continue;
    const match = /^(\d+)\.content$/.exec(key.slice(prefix.length));
    if (match && (!best || Number(match[1]) > best[0])) best = [Number(match[1]), value];
  }
  return best?.[1];
}

/** An OpenInference input.value / output.value: JSON payloads are reduced to their message text. */
function ioValue(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = maybeJson(value);
  return parsed === value ? value : valueText(parsed) ?? value;
}

/**
 * OpenInference's CrewAI span of a task run (`Researcher._execute_core`, older `Task._execute_core`): its input is the
 * call's arguments as JSON, the agent as a Python repr (`role='Researcher' goal=…`) and `context`, the earlier tasks'
 * outputs it is handed. The agent's role, and that context (none for a first task: the agent's prompt is then read
 * from its chat span).
 */
function crewTaskCall(name: string, input: unknown): { role?: string; context?: string } | undefined {
  if (!name.endsWith('._execute_core')) return undefined;
  const args = asObject(maybeJson(input));
  const agent = asString(args?.agent);
  if (!args || agent === undefined) return undefined;
  const context = asString(args.context);
  // Python's repr quotes with ' unless the text holds one (`role="Writer's aide"`).
  const role = /\brole=(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/.exec(agent);
  const quoted = role?.[1] ?? role?.[2];
  const unescaped = quoted?.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c);
  return { role: unescaped, context: context?.trim() ? context : undefined };
}

/** Keys under which a call's arguments carry the request itself (LangChain's AgentExecutor: `{"input": …, "chat_history": []}`). */
const INPUT_KEYS = ['input', 'query', 'question', 'task', 'message', 'prompt', 'messages'];

/** Operations of model calls (GenAI conventions; any-agent's and TinyAgent's `call_llm`). */
const CHAT_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'call_llm']);

/** The request in a call's arguments as JSON: the text under `input`, `message`, `query`… (AgentExecutor, Agno's `Agent.run`). */
function requestOf(value: unknown): string | undefined {
  const args = typeof value === 'string' && value.trimStart().startsWith('{') ? asObject(maybeJson(value)) : undefined;
  for (const key of INPUT_KEYS) {
    const text = asString(args?.[key]);
    if (text !== undefined && text.trim() !== '') return text;
  }
  return undefined;
}

/** An `input.value` that is a JSON object in which no message text was found (read as its compact JSON), else undefined. */
function argumentsJson(value: unknown): string | undefined {
  const parsed = typeof value === 'string' ? maybeJson(value) : undefined;
  if (!asObject(parsed) || Array.isArray(parsed) || INPUT_KEYS.some((key) => key in (parsed as object))) return undefined;
  const text = valueText(parsed);
  return text === JSON.stringify(parsed) ? text : undefined;
}

/** The text parts of a Gemini content (`{role, parts: [{text}, {functionCall}]}`), joined; undefined without text. */
function partsText(content: unknown): string | undefined {
  const parts = asObject(content)?.parts;
  const texts = Array.isArray(parts) ? parts.map((part) => asString(asObject(part)?.text)).filter((text): text is string => text !== undefined && text.trim() !== '') : [];
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/**
 * What Google ADK's own tracing records on a model call (`gcp.vertex.agent.llm_request` / `llm_response`, JSON): the
 * text of the request's last user turn (ADK puts the other agents' replies there, "For context: …"), and the text of
 * the response.
 */
function adkContent(attrs: Map<string, unknown>): { input?: string; output?: string } {
  const request = asObject(maybeJson(attrs.get('gcp.vertex.agent.llm_request')));
  const response = asObject(maybeJson(attrs.get('gcp.vertex.agent.llm_response')));
  const contents = Array.isArray(request?.contents) ? request.contents : [];
  const lastUser = [...contents].reverse().find((c) => asString(asObject(c)?.role) === 'user');
  return { input: partsText(lastUser), output: partsText(response?.content) };
}

/**
 * What any-agent records as a model call's `gen_ai.output` (also the run's final output, which the any-agent reader
 * puts there on the agent's span): the reply's text; a structured output (JSON) laid out as `dataText` lays out a tool
 * result, every field kept; none for a turn that only called tools (`[{"tool.name", "tool.args"}]`: the calls are read
 * from the `execute_tool` spans that ran them, with the arguments the tool was given).
 */
function anyAgentOutput(value: unknown): string | undefined {
  const text = recorded(value);
  const parsed = text === undefined ? undefined : maybeJson(text);
  if (Array.isArray(parsed) && parsed.every((call) => asObject(call)?.['tool.name'] !== undefined)) return undefined;
  return parsed !== null && typeof parsed === 'object' ? dataText(parsed) : text;
}

/** Text that records nothing: absent, blank, or an empty JSON value (what Phoenix and ADK write when content is off). */
function recorded(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? undefined : JSON.stringify(value);
  return text === undefined || /^\s*(?:\{\s*\}|\[\s*\]|""|null)?\s*$/.test(text) ? undefined : text;
}

/**
 * A tool result as the model read it: LangChain's tool run output (`{"output": …}`, a serialised ToolMessage: its
 * content), an MCP result (`{"content": [{"type": "text", …}]}`: its text parts), any other JSON laid out as lines
 * (`laidOut`), else the text as recorded. Nothing of a result with other fields is dropped (an instruction can sit in
 * any of them).
 */
function toolResultText(value: unknown): string | undefined {
  const text = recorded(value);
  const parsed = text === undefined ? undefined : maybeJson(text);
  const wrapper = asObject(parsed);
  const inner = wrapper && !Array.isArray(wrapper) && Object.keys(wrapper).length === 1 && 'output' in wrapper ? wrapper.output : parsed;
  if (typeof inner === 'string') return recorded(inner) ?? text;
  const result = asObject(inner);
  if (result?.lc !== undefined) return messageText(result) ?? text;
  if (result && Array.isArray(result.content) && Object.keys(result).every((key) => MCP_RESULT_KEYS.has(key)) && result.content.every(isTextPart)) {
    return contentText(result.content) ?? text;
  }
  // Bedrock Converse content blocks, as Strands Agents records a result: `[{"text": "…"}]`.
  if (Array.isArray(inner) && inner.length > 0 && inner.every(isTextBlock)) return contentText(inner) ?? text;
  if (typeof inner !== 'object' || inner === null) return text;
  return dataText(inner);
}


/** An MCP content part that is text (a result with a resource, an image or anything else is read whole). */
const isTextPart = (part: unknown) => asObject(part)?.type === 'text' && typeof asObject(part)?.text === 'string';

/** A content block that is text and nothing else: `{"text": …}`, with or without `"type": "text"`. */
const isTextBlock = (part: unknown) => {
  const p = asObject(part);
  return typeof p?.text === 'string' && Object.keys(p).every((key) => key === 'text' || (key === 'type' && p.type === 'text'));
};

/** The fields of an MCP tool result whose text parts are all the model is shown (one with `structuredContent` is read whole). */
const MCP_RESULT_KEYS = new Set(['content', 'isError', '_meta']);

/**
 * The tool a span executes, if it is a tool span: GenAI's `execute_tool` (arguments and result opt-in as
 * `gen_ai.tool.call.arguments` / `.result`; Google ADK's `gcp.vertex.agent.tool_call_args` / `tool_response`;
 * pydantic-ai's earlier `tool_arguments` / `tool_response` on its `running tool` span; any-agent's `gen_ai.tool.args` /
 * `gen_ai.output`), or OpenInference's TOOL span (`tool.name`, `input.value`, `output.value`).
 */
function toolRun(attrs: Map<string, unknown>, op: string | undefined, oiKind: string | undefined, name: string): ToolRun | undefined {
  // (A name an exporter wrote as a number is still the tool's name.)
  const nameOf = (value: unknown) => (typeof value === 'number' ? String(value) : asString(value));
  const declared = nameOf(attrs.get('gen_ai.tool.name')) ?? nameOf(attrs.get('tool.name'));
  if (op !== 'execute_tool' && oiKind !== 'TOOL' && !(op === undefined && oiKind === undefined && declared !== undefined)) return undefined;
  return {
    name: declared ?? (name.replace(/^execute_tool\s+/, '') || 'unknown'),
    args: recorded(attrs.get('gen_ai.tool.call.arguments') ?? attrs.get('gcp.vertex.agent.tool_call_args') ?? attrs.get('tool_arguments') ?? attrs.get('input.value') ?? attrs.get('gen_ai.tool.args')),
    result: toolResultText(attrs.get('gen_ai.tool.call.result') ?? attrs.get('gcp.vertex.agent.tool_response') ?? attrs.get('tool_response') ?? attrs.get('output.value') ?? attrs.get('gen_ai.output')),
  };
}

/** The role a GenAI message event is named for (`gen_ai.user.message` → user; the tool message's role is tool). */
const MESSAGE_EVENT = /^gen_ai\.(system|user|assistant|tool)\.message$/;

/**
 * The GenAI events conventions of semantic conventions up to 1.36 (Strands Agents' default, without
 * OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental): each message the model was sent is an event named for its
 * role with its `content`, the reply a `gen_ai.choice` event with its `message`. Read as the attributes the later
 * conventions write (where the span has none of its own): on a tool span, the tool message is the call's arguments
 * and the choice its result; on any other operation, the messages are its input and the choice its output.
 */
function messageEventsRead(events: unknown[], op: string, attrs: Map<string, unknown>): void {
  const messages: { role: string; content: unknown }[] = [];
  let choice: unknown;
  for (const event of events) {
    const name = asString(asObject(event)?.name) ?? '';
    const fields = new Map(attributeEntries(asObject(event)?.attributes));
    const role = MESSAGE_EVENT.exec(name)?.[1];
    if (role !== undefined && fields.has('content')) messages.push({ role, content: fields.get('content') });
    else if (name === 'gen_ai.choice' && fields.has('message')) choice = fields.get('message');
  }
  const fill = (key: string, value: unknown) => {
    if (value !== undefined && !attrs.has(key)) attrs.set(key, value);
  };
  // A tool's arguments and result as recorded (the tool span's own readings parse them).
  if (op === 'execute_tool') {
    fill('gen_ai.tool.call.arguments', messages.find((m) => m.role === 'tool')?.content);
    fill('gen_ai.tool.call.result', choice);
    return;
  }
  // Kept as values, never serialised again (a content nested thousands deep must not reach JSON.stringify).
  if (messages.length > 0) fill('gen_ai.input.messages', messages.map(({ role, content }) => ({ role, content: contentBlocks(content) })));
  if (choice === undefined) return;
  // The choice's message: text, content blocks, or a whole message (`{"role": …, "content": …}`).
  const message = asObject(maybeJson(choice));
  fill('gen_ai.output.messages', [message && !Array.isArray(message) && message.content !== undefined ? { role: 'assistant', ...message } : { role: 'assistant', content: contentBlocks(choice) }]);
}

/** A message event's content: its content blocks where it is a JSON list of them, else the text as written (JSON or not). */
function contentBlocks(content: unknown): unknown {
  const parsed = maybeJson(content);
  return Array.isArray(parsed) ? parsed : content;
}

/**
 * A span or trace id under `context`: the text ConsoleSpanExporter writes ("0x…"), or the integer any-agent's AgentSpan
 * keeps (pydantic writes it as a JSON number), as hex of `width` digits. Integers past 2^53 arrive rounded to the
 * nearest double: distinct random 64-bit ids meet only when within 2,048 of each other (a chance of about 2^-52 per
 * pair), and a parent's id is rounded as its children's references to it are.
 */
function idText(value: unknown, width: number): string | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? BigInt(value).toString(16).padStart(width, '0') : undefined;
  return asString(value);
}

function readSpan(span: Json, line: number, seq: number): SpanInfo | undefined {
  // Python's ConsoleSpanExporter writes the ids under `context` and the parent as `parent_id`; a Phoenix spans
  // dataframe written with pandas' to_json flattens them (`context.span_id`).
  const context = asObject(span.context);
  const traceId = asString(span.traceId) ?? asString(span.trace_id) ?? idText(context?.trace_id, 32) ?? asString(span['context.trace_id']);
  const spanId = asString(span.spanId) ?? asString(span.span_id) ?? idText(context?.span_id, 16) ?? asString(span['context.span_id']);
  if (!traceId || !spanId) return undefined;
  const attrs = new Map(attributeEntries(span.attributes ?? prefixedAttributes(span)));
  // Content recorded on span events: gen_ai.client.inference.operation.details, or the older
  // gen_ai.content.prompt / gen_ai.content.completion events (attributes gen_ai.prompt / gen_ai.completion).
  const events = Array.isArray(span.events) ? span.events : [];
  for (const event of events) {
    for (const [key, value] of attributeEntries(asObject(event)?.attributes)) {
      if (key.startsWith('gen_ai.') && !attrs.has(key)) attrs.set(key, value);
    }
  }
  const op = asString(attrs.get('gen_ai.operation.name'));
  if (op !== undefined) messageEventsRead(events, op, attrs);
  // Arize Phoenix keeps the OpenInference kind beside the attributes (`span_kind`).
  const oiKind = (asString(attrs.get('openinference.span.kind')) ?? asString(span.span_kind))?.toUpperCase();
  const name = asString(span.name) ?? '';
  const tool = toolRun(attrs, op, oiKind, name);
  const graph = graphPlace(asObject(maybeJson(attrs.get('metadata'))) ?? {});
  // Python's OpenInference marks every run named like "agent" AGENT, a LangGraph ReAct loop's inner node included: on a
  // graph node that says nothing (the graph's nodes are read below).
  // BeeAI's OpenInference spans each event an agent emits (`agent.react.update-13`, `target` agent.react.update) as
  // AGENT: events of the agent around them, not agents.
  const target = asString(attrs.get('target'));
  const emitterEvent = target !== undefined && /^\w+(?:\.\w+)+$/.test(target) && name.startsWith(`${target}-`) && /^\d+$/.test(name.slice(target.length + 1));
  const isAgent = op === 'invoke_agent' || (oiKind === 'AGENT' && graph.node === undefined && !emitterEvent);
  const crewTask = crewTaskCall(name, attrs.get('input.value'));
  const namedAgent =
    asString(attrs.get('gen_ai.agent.name')) ??
    asString(attrs.get('agent.name')) ??
    asString(attrs.get('graph.node.name')) ??
    asString(attrs.get('graph.node.id')) ??
    asString(attrs.get('gen_ai.agent.id')) ??
    crewTask?.role;
  const agentName =
    namedAgent ??
    // `invoke_agent writer` (GenAI conventions), `agent_run [writer]` (Google ADK's own span names).
    (isAgent ? name.replace(/^invoke_agent\s+/, '').replace(/^agent_run \[(.+)\]$/, '$1') || undefined : undefined);
  const adk = tool ? {} : adkContent(attrs);
  const said = graph.node !== undefined && typeof attrs.get('output.value') === 'string' ? nodeOutput(maybeJson(attrs.get('output.value')), graph.node) : undefined;
  // A tool span's input and output are its arguments and result (`tool`), never what an agent was asked or said.
  const input = tool
    ? undefined
    : genAiMessages(attrs.get('gen_ai.input.messages'), ['user']) ??
    flattenedMessages(attrs, 'llm.input_messages.', ['user']) ??
    legacyIndexed(attrs, 'gen_ai.prompt.') ??
    genAiMessages(attrs.get('gen_ai.prompt'), ['user']) ??
    (crewTask ? crewTask.context : requestOf(attrs.get('input.value')) ?? ioValue(attrs.get('input.value'))) ??
    ioValue(attrs.get('mastra.agent_run.input')) ??
    adk.input;
  // (A LangGraph tool node's results are its tools' words, not its own.)
  const output = tool || said?.tools
    ? undefined
    : said?.text ??
    genAiMessages(attrs.get('gen_ai.output.messages'), ['assistant']) ??
    flattenedMessages(attrs, 'llm.output_messages.', ['assistant']) ??
    legacyIndexed(attrs, 'gen_ai.completion.') ??
    genAiMessages(attrs.get('gen_ai.completion'), ['assistant']) ??
    ioValue(attrs.get('output.value')) ??
    ioValue(attrs.get('mastra.agent_run.output')) ??
    // pydantic-ai's agent run span: its result, text or structured output (a `final_result` tool call's arguments).
    ioValue(attrs.get('final_result')) ??
    adk.output ??
    anyAgentOutput(attrs.get('gen_ai.output'));
  const instructions = maybeJson(attrs.get('gen_ai.system_instructions'));
  const modelCall = oiKind === 'LLM' || (op !== undefined && CHAT_OPERATIONS.has(op));
  const read = input !== undefined || output !== undefined || tool?.args !== undefined || tool?.result !== undefined;
  return {
    traceId,
    spanId,
    parentId: asString(span.parentSpanId) ?? asString(span.parent_span_id) ?? asString(span.parent_id) ?? idText(asObject(span.parent)?.span_id, 16),
    start: toMillis(span.startTimeUnixNano ?? span.start_time),
    end: toMillis(span.endTimeUnixNano ?? span.end_time),
    line,
    seq,
    declaredAgent: isAgent,
    agentByKindOnly: isAgent && op !== 'invoke_agent' && namedAgent === undefined,
    isAgent,
    agentName,
    name,
    graph: graph.node !== undefined ? { ...graph, speaks: said?.speaks ?? false, tools: said?.tools, calls: said?.calls } : undefined,
    conversation: asString(attrs.get('gen_ai.conversation.id')) ?? asString(attrs.get('session.id')),
    input,
    inputIsArguments: input !== undefined && input.startsWith('{') && input === argumentsJson(attrs.get('input.value')),
    inputIsCrewContext: input !== undefined && input === crewTask?.context,
    chat: !tool && (modelCall || (oiKind === undefined && op === undefined)),
    modelCall,
    output,
    systemPrompt: typeof instructions === 'string' ? instructions : contentText(instructions),
    genAi: op !== undefined || oiKind !== undefined || [...attrs.keys()].some((k) => k.startsWith('gen_ai.')),
    tool,
    unread: read ? undefined : unreadContent(attrs),
  };
}

/** The attributes the readings above take content from (a name, or a prefix before a dot). */
const READ_CONTENT =
  /^(?:gen_ai\.(?:input\.messages|output\.messages|output|prompt|completion|system_instructions|tool\.call\.arguments|tool\.call\.result|tool\.args)|llm\.(?:input|output)_messages|input\.value|output\.value|mastra\.agent_run\.(?:input|output)|final_result|gcp\.vertex\.agent|tool_arguments|tool_response|metadata)(?:\.|$)/;
/** A name that says what was said, asked or returned (`traceloop.entity.output`, `ai.prompt.messages`). */
const CONTENT_NAME = /(?:^|[._])(?:inputs?|outputs?|prompts?|completions?|messages?|contents?|response|request|args|arguments|results?|query|answer|text)(?:$|[._])/i;
/** A name of what describes a call (an id, a model, a count, a type), or of a convention that records no words. */
const METADATA_NAME =
  /(?:^|\.)(?:name|id|ids|type|types|model|description|kind|status|version|count|tokens|length|size|role|finish_reasons?|mime_type|format|encoding|method|url)$|^(?:gen_ai\.(?:request|response|usage|token)|exception|http|url|server|client|net|network|rpc|db|process|host|os|code|thread|telemetry|service|user_agent|messaging)\./i;

/**
 * Attributes of a span that hold text under a name no reading here takes content from (at most 5): said when a file
 * yields no content, so that a file whose content was captured, under names this importer does not read, is not told
 * to switch capture on.
 */
function unreadContent(attrs: Map<string, unknown>): string[] | undefined {
  const keys: string[] = [];
  for (const [key, value] of attrs) {
    if (keys.length === 5) break;
    if ((typeof value === 'string' || typeof value === 'object') && !READ_CONTENT.test(key) && CONTENT_NAME.test(key) && !METADATA_NAME.test(key) && recorded(value) !== undefined) keys.push(key);
  }
  return keys.length > 0 ? keys : undefined;
}

/**
 * What lies above a span: the nearest agent invocation, the nearest one with a name, the nearest conversation id, and,
 * below that agent, the nearest tool span, the outermost one that records a result (what runs below it is that tool's
 * work), and the nearest model call (the turn a tool call was made in, where a framework nests them: Google ADK).
 */
interface Above {
  agent?: SpanInfo;
  namedAgent?: SpanInfo;
  conversation?: string;
  tool?: SpanInfo;
  workOf?: SpanInfo;
  turn?: SpanInfo;
}

/**
 * Decides which spans are agent invocations, parents before children, and returns what lies above each span. A span is
 * one when it says so, or when it is a chat span naming an agent with no agent above it (it stands for that agent's
 * invocation); not when the nearest agent above is the same agent (a framework span around an SDK span). Every span is
 * visited once (each chain is walked up to the first span already decided), so a trace of 20,000 nested spans takes as
 * long as a flat one; a cycle of parent links is cut where it closes. It runs again as spans keep arriving (the live
 * receiver), from each span's own attributes.
 */
function decideAgents(spans: readonly SpanInfo[]): Map<SpanInfo, Above> {
  const byId = new Map(spans.map((s) => [`${s.traceId}/${s.spanId}`, s]));
  const wrappers = workflowWrappers(spans);
  const above = new Map<SpanInfo, Above>();
  const below = (s: SpanInfo, context: Above): Above => ({
    agent: s.isAgent ? s : context.agent,
    namedAgent: s.isAgent && s.agentName ? s : context.namedAgent,
    conversation: s.conversation ?? context.conversation,
    tool: s.isAgent ? undefined : s.tool ? s : context.tool,
    workOf: s.isAgent ? undefined : (context.workOf ?? (s.tool?.result !== undefined ? s : undefined)),
    turn: s.isAgent ? undefined : isTurn(s) ? s : context.turn,
  });
  for (const start of spans) {
    const path: SpanInfo[] = [];
    const onPath = new Set<SpanInfo>();
    let up: SpanInfo | undefined = start;
    while (up && !above.has(up) && !onPath.has(up)) {
      path.push(up);
      onPath.add(up);
      up = up.parentId ? byId.get(`${up.traceId}/${up.parentId}`) : undefined;
    }
    let context: Above = up && above.has(up) ? below(up, above.get(up)!) : {};
    for (const s of path.reverse()) {
      // (A nameless span that says it is an agent, with none above, is none: it names no one its content could be from.)
      // A LangChain runnable only its kind calls an agent, inside another agent, is a step of that agent (an
      // AgentExecutor's scratchpad formatting and output parser): not an agent of its own.
      const step = s.agentByKindOnly && context.agent !== undefined && LANGCHAIN_STEP.test(s.name);
      s.isAgent = !wrappers.has(s) && !step && (s.declaredAgent || (s.agentName !== undefined && !context.agent)) && context.agent?.agentName !== s.agentName;
      above.set(s, context);
      context = below(s, context);
    }
  }
  return above;
}

/** LangChain's building blocks, which OpenInference marks AGENT when their name holds "agent". */
const LANGCHAIN_STEP = /^(?:Runnable[A-Z]?\w*(?:<.*>)?|\w*OutputParser|\w*PromptTemplate)$/;

/**
 * Root spans that say they are agents but only wrap the agents of a workflow: OpenInference's OpenAI Agents processor
 * opens each trace with an AGENT span named after the workflow ("Agent workflow"), with no content and no agent
 * attribute, over the agent spans and no GenAI span of its own. (In the live receiver a root is decided again as its
 * spans arrive: one whose own chat span comes after its agents' is a wrapper until then, and the run restarts.)
 */
function workflowWrappers(spans: readonly SpanInfo[]): Set<SpanInfo> {
  const roots = spans.filter((s) => s.declaredAgent && !s.parentId && s.input === undefined && s.output === undefined && s.agentName === s.name);
  if (roots.length === 0) return new Set();
  const children = new Map<string, SpanInfo[]>();
  for (const s of spans) {
    if (!s.parentId) continue;
    const key = `${s.traceId}/${s.parentId}`;
    const list = children.get(key);
    if (list) list.push(s);
    else children.set(key, [s]);
  }
  // Below the root down to the first agent spans: agents, and no GenAI span of the root's own (a chat under a step).
  const wraps = (root: SpanInfo) => {
    let agents = 0;
    const pending = [...(children.get(`${root.traceId}/${root.spanId}`) ?? [])];
    while (pending.length > 0) {
      const span = pending.pop()!;
      if (span.declaredAgent) agents++;
      else if (span.genAi) return false;
      else pending.push(...(children.get(`${span.traceId}/${span.spanId}`) ?? []));
    }
    return agents > 0;
  };
  return new Set(roots.filter(wraps));
}

/**
 * One conversation being built: its deliveries, its tool calls (with the turn each was made in) and the tools' results,
 * the agents whose answer was read but not what they were asked, and the user's first request.
 */
interface Conversation {
  deliveries: Delivery[];
  calls: Map<Delivery, SpanInfo | undefined>;
  results: Set<Delivery>;
  agentSpans: number;
  question?: string;
  first: number;
  unheard: string[];
}

const newConversation = (first: number): Conversation => ({ deliveries: [], calls: new Map(), results: new Set(), agentSpans: 0, first, unheard: [] });

// What to do when an OpenTelemetry export holds no message content.
const OTEL_CAPTURE_ADVICE =
  'GenAI instrumentations record content only on opt-in. ' +
  'Re-run with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (OpenInference: leave OPENINFERENCE_HIDE_INPUTS/OUTPUTS unset; Google ADK: leave ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS on; Microsoft Agent Framework: enable_sensitive_data=True, in .NET EnableSensitiveData = true) ' +
  'so spans carry gen_ai.input.messages / gen_ai.output.messages (or input.value / output.value)';

/** OTLP importer: collects compact spans, then builds one episode per conversation (also of `otlpRewriter`'s spans). */
/** What the OTLP importer tells a value, and a file, that hold no span. */
const OTLP_REFUSALS = {
  value: 'missing "resourceSpans"; expected OTLP JSON (ExportTraceServiceRequest) as the OTel file exporter writes',
  file: 'no spans found; expected OTLP JSON with resourceSpans[].scopeSpans[].spans[]',
};

class OtlpImporter implements Importer {
  private readonly spans: SpanInfo[] = [];
  private seq = 0;
  private values = 0;

  /**
   * `captureAdvice`: how to make the exporter record message content, said when none was; `refusals`: what a value
   * holding no span, and a file holding none, are told (in the words of the format read: OTLP's, or Phoenix's).
   */
  constructor(
    private readonly file?: string,
    private readonly captureAdvice = OTEL_CAPTURE_ADVICE,
    private readonly refusals = OTLP_REFUSALS,
  ) {}

  add(value: unknown, line: number): void {
    this.values++;
    const o = asObject(value);
    if (!o) throw new InputError('invalid-field', 'expected an OTLP object (ExportTraceServiceRequest with "resourceSpans", or a span)', this.file, line);
    // Grafana Tempo's export keeps the names OTLP had before 1.0: `batches`, `instrumentationLibrarySpans`.
    const resourceSpans = o.resourceSpans ?? (isTempoExport(o) ? o.batches : undefined);
    if (Array.isArray(resourceSpans)) {
      for (const rs of resourceSpans) {
        const r = asObject(rs);
        for (const ss of otlpList(r?.scopeSpans ?? r?.instrumentationLibrarySpans, 'scopeSpans', this.file, line)) {
          for (const span of otlpList(asObject(ss)?.spans, 'spans', this.file, line)) this.addSpan(span, line);
        }
      }
    } else if (o.spanId !== undefined || o.span_id !== undefined || asObject(o.context)?.span_id !== undefined || o['context.span_id'] !== undefined) this.addSpan(o, line);
    // A page of Phoenix's REST API (`{"data": [...]}`) on a line of its own.
    else if (Array.isArray(o.data) && o.data.some(isPhoenixSpan)) for (const span of o.data) this.addSpan(span, line);
    else throw new InputError('missing-field', this.refusals.value, this.file, line, 'resourceSpans');
  }

  private addSpan(raw: unknown, line: number): void {
    const span = asObject(raw);
    const info = span && readSpan(span, line, this.seq++);
    if (!info) throw new InputError('missing-field', 'span without "traceId"/"spanId"; expected OTLP JSON spans', this.file, line, 'spanId');
    this.spans.push(info);
  }

  finish(): Episode[] {
    if (this.values === 0 || this.spans.length === 0) throw new InputError('empty', this.refusals.file, this.file);
    // A LangGraph app traced by OpenInference's LangChain instrumentation marks no span as an agent: its graph nodes are.
    if (!this.spans.some((s) => s.declaredAgent || s.agentName) && this.spans.some((s) => s.graph)) return graphEpisodes(asGraphRuns(this.spans), this.file);
    const above = decideAgents(this.spans);
    const agentSpans = this.spans.filter((s) => s.isAgent && s.agentName);
    if (agentSpans.length === 0) {
      throw new InputError(
        'missing-field',
        `none of the ${this.spans.length} spans is an agent invocation; expected spans with gen_ai.operation.name = "invoke_agent" (or openinference.span.kind = "AGENT") and gen_ai.agent.name`,
        this.file,
        undefined,
        'gen_ai.operation.name',
      );
    }
    const owner = (s: SpanInfo) => (s.isAgent ? s : above.get(s)!.agent);
    // Content of an invocation that did not record it itself: its own model calls (first input, last output).
    const inner = new Map<SpanInfo, SpanInfo[]>();
    for (const s of this.spans) {
      // What runs inside a tool (its own model calls: a delegate tool's coworker) is the tool's, never its agent's words.
      if (s.isAgent || above.get(s)!.tool) continue;
      const agent = owner(s);
      if (!agent) continue;
      const list = inner.get(agent);
      if (list) list.push(s);
      else inner.set(agent, [s]);
    }
    const tools = toolCalls(this.spans, above);
    const registry = new AgentRegistry();
    // The user gives the task: no agent to lend its role to another (remediation's donor).
    registry.see(USER_AGENT, { role: 'user' });
    // Per conversation: what it delivered, and the agents whose answer was read but not what they were asked.
    const conversations = new Map<string, Conversation>();
    let seq = 0;
    for (const span of [...agentSpans].sort(inTimeOrder)) {
      const parentAgent = above.get(span)!.namedAgent;
      const receiver = span.agentName!;
      const sender = parentAgent?.agentName ?? USER_AGENT;
      registry.see(receiver, { systemPrompt: span.systemPrompt });
      const conversationId = span.conversation ?? above.get(span)!.conversation ?? span.traceId;
      const conversation: Conversation = conversations.get(conversationId) ?? newConversation(span.start);
      conversations.set(conversationId, conversation);
      conversation.agentSpans++;
      const calls = (inner.get(span) ?? []).sort(inTimeOrder);
      // A model call's prompt before any other inner span's input (a tool's argument is not what the agent was asked).
      const chatInput = calls.find((c) => c.chat && c.input)?.input;
      const input = (span.inputIsArguments ? chatInput : undefined) ?? span.input ?? chatInput ?? calls.find((c) => c.input)?.input;
      const output = span.output ?? [...calls].reverse().find((c) => c.output)?.output;
      if (input !== undefined) {
        // The user's words, unless they hand on another agent's earlier output whole (a framework's glue passing one
        // task's result to the next, as a sequential crew does): then a hand-off whose relayed text reached the agent.
        const handoff = sender === USER_AGENT && !span.inputIsCrewContext && !relaysEarlierOutput(input, receiver, conversation.deliveries) ? undefined : 'fresh';
        conversation.deliveries.push({ from: sender, to: [receiver], content: input, time: span.start, seq: seq++, line: span.line, ts: isoOf(span.start), handoff });
        if (sender === USER_AGENT) conversation.question ??= input;
      }
      // Its tool calls: the call to the tool, and the tool's result back to it (a poisoned result is a source).
      const made = toolMessages(receiver, tools.get(span) ?? [], calls, above, () => seq++);
      for (const [call, turn] of made.calls) conversation.calls.set(call, turn);
      for (const result of made.results) conversation.results.add(result);
      for (const run of tools.get(span) ?? []) registry.see(toolAgentId(run.tool!.name), { role: 'tool' });
      if (output !== undefined) {
        conversation.deliveries.push({ from: receiver, to: [sender], content: output, time: span.end, seq: seq++, line: span.line, ts: isoOf(span.end) });
        if (input === undefined) conversation.unheard.push(receiver);
      }
    }
    const episodes: Episode[] = [];
    const empty: string[] = [];
    let requestOnly = false;
    for (const [id, c] of [...conversations.entries()].sort((a, b) => a[1].first - b[1].first)) {
      const { messages, cut } = withinTraceLimits(c);
      // (The user's first request is the task, no message: a run of that alone holds nothing to analyse.)
      if (messages.length === 0) {
        requestOnly ||= c.question !== undefined;
        empty.push(id);
        continue;
      }
      const warnings: TraceWarning[] = [];
      if (c.unheard.length > 0) {
        const names = [...new Set(c.unheard)];
        warnings.push({ code: 'skipped-line', line: 0, message: `${c.unheard.length} invocation(s) with an output but no input this importer reads (${names.slice(0, 3).join(', ')}): what they were handed, and so the rounds around them, are missing` });
      }
      if (cut) warnings.push({ code: 'skipped-line', line: 0, message: cut });
      const ids = mentioned(messages);
      episodes.push(buildEpisode(id, { run: id, task: c.question ? { question: c.question } : undefined, agents: registry.only(ids) }, messages, [], warnings));
    }
    if (episodes.length === 0) throw this.noContent(agentSpans.length, above, requestOnly);
    if (empty.length > 0) {
      episodes[0].warnings.push({ code: 'skipped-line', line: 0, message: `${empty.length} conversation(s) without captured message content skipped: ${empty.slice(0, 3).join(', ')}` });
    }
    return episodes;
  }

  /**
   * Why agent invocations gave no message, said by what the spans hold: content in spans under no agent invocation
   * (their parent not exported), else text under attributes no reading here knows (captured, so no opt-in is missing),
   * else how to make the exporter capture content (`requestOnly`: all that was read is the user's request, the task).
   */
  private noContent(agents: number, above: Map<SpanInfo, Above>, requestOnly: boolean): InputError {
    const found = `found ${agents} agent invocation span(s)`;
    const stray = this.spans.filter((s) => !s.isAgent && !above.get(s)!.agent && (s.input ?? s.output ?? s.tool?.args ?? s.tool?.result) !== undefined);
    if (stray.length > 0) {
      const ids = new Set(this.spans.map((s) => `${s.traceId}/${s.spanId}`));
      const absent = stray.find((s) => s.parentId !== undefined && !ids.has(`${s.traceId}/${s.parentId}`));
      const names = [...new Set(stray.map((s) => `"${s.name}" (line ${s.line})`))].slice(0, 3).join(', ');
      return new InputError(
        'no-content',
        `${found} but no message content under them: ${stray.length} span(s) that carry content (${names}) lie under no agent invocation span` +
          `${absent ? ` (the parent span they name, ${absent.parentId}, is not in the file)` : ''}; export the whole trace, with the spans between them and the agent's`,
        this.file,
        undefined,
        'parentSpanId',
      );
    }
    const unread = [...new Set(this.spans.flatMap((s) => s.unread ?? []))];
    if (unread.length > 0) {
      return new InputError(
        'no-content',
        `${found} but no message content this importer reads: the spans hold text under ${unread.slice(0, 5).join(', ')}, attributes of no convention it reads ` +
          '(the content was captured: no opt-in is missing); export with the GenAI semantic conventions (gen_ai.input.messages / gen_ai.output.messages) or OpenInference (input.value / output.value)',
        this.file,
        undefined,
        'gen_ai.output.messages',
      );
    }
    const read = requestOnly ? "only the user's request (the task), no reply, tool call or tool result" : 'no message content';
    return new InputError('no-content', `${found} but ${read}: ${this.captureAdvice}`, this.file, undefined, 'gen_ai.output.messages');
  }
}

/**
 * An importer of another store's export of OTLP spans (Jaeger, AgentOps): `rewrite` turns each selected value into the
 * OTLP spans it was (throwing InputError in the store's own words), and the OTLP importer reads them; `empty` is the
 * error for a file without spans, `captureAdvice` what to do when its spans hold no message content (by default the
 * OpenTelemetry instrumentations' opt-in).
 */
export function otlpRewriter(file: string | undefined, empty: string, rewrite: (value: unknown, line: number) => Record<string, unknown>[], captureAdvice?: string): Importer {
  const otlp = new OtlpImporter(file, captureAdvice);
  let spans = 0;
  return {
    add(value, line) {
      const rewritten = rewrite(value, line);
      spans += rewritten.length;
      otlp.add({ resourceSpans: [{ scopeSpans: [{ spans: rewritten }] }] }, line);
    },
    finish() {
      if (spans === 0) throw new InputError('empty', empty, file);
      return otlp.finish();
    },
  };
}

/** A conversation's messages in causal rounds, its tool calls and results up to `until` (ms; all when undefined). */
function conversationMessages(c: Conversation, until?: number): Delivery[] {
  const keep = (d: Delivery) => until === undefined || d.time <= until;
  const calls = [...c.calls.keys()].filter(keep);
  return assignCausalRounds(readHandoffs(parallelCallsJoined([...c.deliveries, ...calls, ...[...c.results].filter(keep)], c.calls), c.question));
}

const fits = (extent: ReturnType<typeof extentOf>) => extent.rounds - 1 <= TRACE_LIMITS.maxRound && extent.cells <= TRACE_LIMITS.maxAgentRounds;

/**
 * A conversation's messages within what one trace holds: a long agent run whose tool calls (a round each, an agent
 * per tool) would take it past the limits keeps its earliest ones, as many as fit (found by bisection over the calls'
 * times; the agents' own messages are all kept), and says where it was cut. Keeping the earliest means a receiver
 * that read the run as it grew keeps what it already judged.
 */
function withinTraceLimits(c: Conversation): { messages: Delivery[]; cut?: string } {
  const all = conversationMessages(c);
  if (c.calls.size === 0 || fits(extentOf(all))) return { messages: all };
  const times = [...new Set([...c.calls.keys(), ...c.results].map((d) => d.time))].sort((a, b) => a - b);
  // Bisect for the latest cut that fits, from a first guess: the tool messages before the first round the whole run's
  // agents cannot all have (it fits more often than not, halving the readings left).
  const whole = extentOf(all);
  const rounds = Math.min(TRACE_LIMITS.maxRound + 1, Math.floor(TRACE_LIMITS.maxAgentRounds / whole.agents));
  const over = all.find((m) => m.round! >= rounds)?.time ?? Infinity;
  const guess = Math.min(times.findIndex((time) => time >= over) - 1, times.length - 2);
  let low = -1;
  let high = times.length - 2;
  if (guess >= 0 && fits(extentOf(conversationMessages(c, times[guess])))) low = guess;
  else high = guess - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(extentOf(conversationMessages(c, times[middle])))) low = middle;
    else high = middle - 1;
  }
  const until = low < 0 ? -Infinity : times[low];
  const kept = [...c.calls.keys()].filter((d) => d.time <= until).length;
  return {
    messages: conversationMessages(c, until),
    cut:
      `${c.calls.size - kept} of ${c.calls.size} tool call(s) not read, from ${isoOf(times[low + 1]) ?? 'the first'} on: with them the run has ` +
      `${whole.agents} agents x ${whole.rounds} rounds, past what one trace holds (${TRACE_LIMITS.maxAgentRounds} agent-rounds, ${TRACE_LIMITS.maxRound + 1} rounds)`,
  };
}

/** How many agents and rounds the delivered messages make, and their product (what a trace's limits bound). */
function extentOf(messages: Delivery[]): { agents: number; rounds: number; cells: number } {
  const agents = mentioned(messages).size;
  const rounds = messages.reduce((max, m) => Math.max(max, m.round! + 1), 0);
  return { agents, rounds, cells: agents * rounds };
}

/**
 * An agent's tool calls of one turn made one after another with nothing between them (parallel calls, each its own
 * span) as one delivery to all those tools, as a chat log shows them: one turn, not one round per call.
 */
function parallelCallsJoined(deliveries: readonly Delivery[], calls: ReadonlyMap<Delivery, SpanInfo | undefined>): Delivery[] {
  const out: Delivery[] = [];
  let open: { delivery: Delivery; turn: SpanInfo | undefined; tools: Set<string> } | undefined;
  for (const d of [...deliveries].sort(deliveryOrder)) {
    const call = calls.has(d);
    if (open && call && d.from === open.delivery.from && calls.get(d) === open.turn) {
      for (const tool of d.to!) open.tools.add(tool);
      open.delivery.content += `\n${d.content}`;
      continue;
    }
    if (open) open.delivery.to = [...open.tools];
    open = call ? { delivery: { ...d }, turn: calls.get(d), tools: new Set(d.to) } : undefined;
    out.push(open?.delivery ?? d);
  }
  if (open) open.delivery.to = [...open.tools];
  return out;
}

/**
 * A model call of the agent, a turn its tool calls can be made in: an LLM or chat span, or a span that names no kind
 * and records a model's output (ADK's `call_llm`); not a wrapper that names none and records nothing (pydantic-ai's
 * `running tools` around its `running tool` spans).
 */
const isTurn = (s: SpanInfo) => s.chat && (s.modelCall || s.output !== undefined);

/** A model call's output that is the model's words (a JSON record, LangChain's raw generations of a turn that only called tools, is not). */
const wordsOf = (turn: SpanInfo | undefined) => (turn?.output !== undefined && !/^\s*[[{]/.test(turn.output) ? turn.output : undefined);

/**
 * An agent's tool calls as deliveries, each with the model call (turn) it was made in: the call, after that turn's words
 * the first time the turn makes one (as a chat log shows it), and the tool's result back. The turn is the model call
 * the tool span runs inside (Google ADK nests them), else the agent's model call that started last before the call.
 */
function toolMessages(receiver: string, runs: readonly SpanInfo[], steps: readonly SpanInfo[], above: Map<SpanInfo, Above>, seq: () => number) {
  const calls = new Map<Delivery, SpanInfo | undefined>();
  const results: Delivery[] = [];
  const turns = steps.filter((c) => isTurn(c) && Number.isFinite(c.start)).sort(inTimeOrder);
  const spoken = new Set<SpanInfo>();
  let started = 0;
  for (const run of runs) {
    const tool = run.tool!;
    const id = toolAgentId(tool.name);
    // Calls come in start order, so one walk over the turns finds the last one started before each (a streamed turn
    // ends after the calls it makes).
    while (started < turns.length && turns[started].start <= run.start) started++;
    const turn = above.get(run)!.turn ?? (started > 0 ? turns[started - 1] : undefined);
    const words = turn && !spoken.has(turn) ? wordsOf(turn) : undefined;
    if (turn) spoken.add(turn);
    const content = (words === undefined ? '' : `${words}\n`) + callText(tool.name, tool.args === undefined ? undefined : maybeJson(tool.args));
    calls.set({ from: receiver, to: [id], content, time: run.start, seq: seq(), line: run.line, ts: isoOf(run.start) }, turn);
    if (tool.result !== undefined) results.push({ from: id, to: [receiver], content: tool.result, time: run.end, seq: seq(), line: run.line, ts: isoOf(run.end) });
  }
  return { calls, results };
}

/**
 * The tool spans each agent invocation ran, in time order: those with their arguments or result recorded, not inside a
 * tool span that records a result (its work: an MCP client span under a framework's tool span; under one that records
 * nothing the inner span's result is what there is), and not one that runs an agent (a sub-agent called as a tool:
 * its invocation is read as the agent's).
 */
function toolCalls(spans: readonly SpanInfo[], above: Map<SpanInfo, Above>): Map<SpanInfo, SpanInfo[]> {
  const runAgents = new Set(spans.flatMap((s) => (s.isAgent && above.get(s)!.tool ? [above.get(s)!.tool!] : [])));
  const byAgent = new Map<SpanInfo, SpanInfo[]>();
  for (const s of spans) {
    const context = above.get(s)!;
    if (!s.tool || s.isAgent || context.workOf || runAgents.has(s) || !context.agent?.agentName) continue;
    if (s.tool.args === undefined && s.tool.result === undefined) continue;
    const list = byAgent.get(context.agent) ?? [];
    byAgent.set(context.agent, list);
    list.push(s);
  }
  for (const list of byAgent.values()) list.sort(inTimeOrder);
  return byAgent;
}

/**
 * The spans of the traces that hold a graph node, read as LangSmith runs (ids made unique across traces), for the
 * graph-episode builder; other traces of the export (a title chain, an evaluator's call) are no run of the graph.
 */
function asGraphRuns(spans: readonly SpanInfo[]): Map<string, RunInfo> {
  const key = (traceId: string, spanId: string) => `${traceId}/${spanId}`;
  const graphs = new Set(spans.filter((s) => s.graph).map((s) => s.traceId));
  return new Map(
    spans.filter((s) => graphs.has(s.traceId)).map((s) => {
      const id = key(s.traceId, s.spanId);
      const parentId = s.parentId && key(s.traceId, s.parentId);
      return [id, { id, parentId, traceId: s.traceId, name: s.name, ...s.graph, start: s.start, seq: s.seq, line: s.line, output: s.output, input: s.input, ts: isoOf(s.start) }];
    }),
  );
}

/** The shortest output read as relayed when it appears whole inside a hand-off (shorter ones match by chance). */
const MIN_RELAYED_CHARS = 40;
/** How many of the latest outputs a hand-off is searched for (a relay passes on recent ones; bounds the work). */
const RELAY_WINDOW = 64;

/** Whether a text to `receiver` holds whole one of the latest outputs another agent (not the user) delivered before it. */
function relaysEarlierOutput(text: string, receiver: string, earlier: readonly Delivery[]): boolean {
  return earlier
    .slice(-RELAY_WINDOW)
    .some((d) => d.from !== USER_AGENT && d.from !== receiver && !d.handoff && d.content.trim().length >= MIN_RELAYED_CHARS && holds(text, d.content.trim()));
}

/**
 * Reads what an orchestrator's hand-offs relay. An earlier output that appears whole in a hand-off reached the invoked
 * agent (it joins the output's recipients) and is not the orchestrator's own words (a marker stands in for it). A
 * hand-off with no words of its own left is dropped; one that says what the orchestrator's earlier hand-offs said, but
 * for the relayed text and the agents' names, is a `repeat` (nothing new to hear). The user's first request is the
 * task (`question`), not a message of a round: the user who asked is not judged on it.
 */
function readHandoffs(deliveries: Delivery[], question: string | undefined): Delivery[] {
  const names = new Set([...mentioned(deliveries)].map((name) => name.toLowerCase()));
  const said = new Map<string, Set<string>>();
  const outputs: Delivery[] = [];
  const kept: Delivery[] = [];
  let task = question;
  for (const d of [...deliveries].sort((a, b) => a.time - b.time || a.seq - b.seq)) {
    if (!d.handoff) {
      outputs.push(d);
      if (d.from === USER_AGENT && d.content === task) task = undefined;
      else kept.push(d);
      continue;
    }
    const to = d.to![0];
    let own = d.content;
    const recent = outputs.slice(-RELAY_WINDOW);
    // What the orchestrator itself said before stays its own words, even where another agent said the same.
    const mine = recent.filter((e) => e.from === d.from).map((e) => e.content.trim()).filter((text) => text.length >= MIN_RELAYED_CHARS && holds(own, text));
    for (const e of recent.filter((e) => e.from !== d.from).sort((a, b) => b.content.length - a.content.length)) {
      const text = e.content.trim();
      if (text.length < MIN_RELAYED_CHARS || !holds(own, text) || mine.some((m) => holds(m, text))) continue;
      own = replaceEvery(own, text, `[relayed from ${e.from}]`);
      // The user's request handed on is the task every agent starts from, not something heard in a round.
      if (e.from === to || e.from === USER_AGENT || e.to?.includes(to)) continue;
      (e.to ??= []).push(to);
      (e.relayed ??= []).push({ to, time: d.time });
    }
    // Its own words, without the relayed text and the agents' names: what it says to every agent it hands work to.
    const words = own.replace(/\[relayed from [^\]]*\]/g, ' ').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    const key = words.filter((w) => !names.has(w)).join(' ');
    if (key === '') continue;
    // The user's words around what it hands on (a framework's task prompt) are a request of a round, as any of its own.
    if (d.from === USER_AGENT) {
      kept.push({ ...d, content: own, handoff: undefined });
      continue;
    }
    const earlier = said.get(d.from) ?? new Set<string>();
    said.set(d.from, earlier);
    kept.push({ ...d, content: own, handoff: earlier.has(key) ? 'repeat' : 'fresh' });
    earlier.add(key);
  }
  return kept;
}

function isoOf(ms: number): string | undefined {
  // A Date holds ±8.64e15 ms; an absurd timestamp (a hostile or broken exporter's) is kept for ordering, shown as none.
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
}

/** True for the path of one span inside an OTLP document (resourceSpans[i].scopeSpans[j].spans[k]; Tempo's batches). */
function selectSpan(path: JsonPath): boolean {
  const n = path.length;
  return n >= 6 && typeof path[n - 1] === 'number' && path[n - 2] === 'spans' && (path[n - 6] === 'resourceSpans' || path[n - 6] === 'batches');
}

/** True for Grafana Tempo's trace export: `batches` of resources with their (pre-1.0) `instrumentationLibrarySpans`. */
function isTempoExport(o: Record<string, unknown>): boolean {
  return Array.isArray(o.batches) && o.batches.some((b) => Array.isArray(asObject(b)?.instrumentationLibrarySpans) || Array.isArray(asObject(b)?.scopeSpans));
}

export const otlpFormat: FormatSpec = {
  title: 'OTLP JSON (OpenTelemetry GenAI / OpenInference)',
  aliases: ['otel', 'opentelemetry', 'openinference'],
  detect: {
    // Or one span per line as Python's ConsoleSpanExporter writes them with a one-line formatter (ids under `context`).
    record: (o) => 'resourceSpans' in o || isTempoExport(o) || (asObject(o.context)?.span_id !== undefined && asObject(o.attributes) !== undefined),
    keys: 'resourceSpans (Grafana Tempo: batches); or one ConsoleSpanExporter span a line',
    signature: /"resourceSpans"\s*:|"batches"\s*:\s*\[\s*\{\s*"(?:resource|scopeSpans|instrumentationLibrarySpans)"\s*:/,
    loneObjectIsDocument: false,
  },
  expects: 'resourceSpans[].scopeSpans[].spans[] with gen_ai.* or openinference.* attributes',
  select: selectSpan,
  create: (file) => new OtlpImporter(file),
};

/** One span as Arize Phoenix gives it (its REST API, its span exports): ids under `context`, the kind as `span_kind`. */
function isPhoenixSpan(value: unknown): boolean {
  const o = asObject(value);
  return o !== undefined && typeof o.span_kind === 'string' && (asObject(o.context)?.span_id !== undefined || o['context.span_id'] !== undefined);
}

const PHOENIX_SPANS = 'a JSON array of spans (or its REST API\'s {"data": [...]}) with context.span_id and span_kind';

export const phoenixFormat: FormatSpec = {
  title: 'Arize Phoenix spans (a JSON array, or its REST API\'s {"data": [...]})',
  aliases: ['arize-phoenix'],
  detect: {
    record: (o) => Array.isArray(o.data) && o.data.some(isPhoenixSpan),
    keys: 'spans with context.span_id and span_kind',
    signature: /^\s*(?:\[|\{\s*"data"\s*:\s*\[)\s*\{[\s\S]{0,4000}?"span_kind"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'a JSON array of spans (or {"data": [...]}) with context.trace_id, context.span_id, span_kind and OpenInference attributes',
  select: (path) => (path.length === 1 && typeof path[0] === 'number') || (path.length === 2 && path[0] === 'data' && typeof path[1] === 'number'),
  // Said in Phoenix's words: a value that holds no span is no Phoenix span (not an OTLP document lacking resourceSpans).
  create: (file) => new OtlpImporter(file, undefined, { value: `expected Arize Phoenix spans: ${PHOENIX_SPANS}`, file: `no spans found; expected Arize Phoenix spans: ${PHOENIX_SPANS}` }),
};
