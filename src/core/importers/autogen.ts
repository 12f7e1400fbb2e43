// AutoGen / AG2 runtime logs: AG2's file logger (`received_message` events: sender -> receiver, the message) and
// autogen-core's structured event log (`"type": "Message"` events with sender, receiver, payload).
import { InputError } from '../errors';
import type { TraceWarning } from '../trace/types';
import { AgentRegistry, assignCausalRounds, asObject, asString, buildEpisode, maybeJson, mentioned, messageText, toMillis, valueText, type Delivery } from './common';
import type { Episode, FormatSpec, Importer } from './types';

type Json = Record<string, unknown>;

const SESSION_BANNER = /^Started new session with Session ID:\s*(\S+)/;
/** The prefix Python's `logging` puts before each message: "2026-02-21 01:55:13,928 - autogen_core.events - INFO - " or "INFO:autogen_core.events:". */
const LOGGING_PREFIX = /^(?:[^{]{0,200}? - [\w.-]+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - |(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.-]+:)/;
/** A line written by autogen-core's loggers through `logging` (a banner: among the first lines, it marks the format). */
const CORE_LOGGER_LINE = /^(?:[^{]{0,200}? - autogen_core[\w.]* - [A-Z]+ - |[A-Z]+:autogen_core[\w.]*:)/;

/** The agent that sends messages with no sender (the program's own `send_message`); it subscribes to no topic. */
const OUTSIDE = 'user';

interface Session {
  id: string;
  deliveries: Delivery[];
  /** autogen-core: delivery-stage events, used only when the file has no send-stage events. */
  delivered: Delivery[];
  /** autogen-core publish events: the receivers are every other agent, known only at the end. */
  broadcast: Set<Delivery>;
  /** The task AgentChat's group chat was started with (its first GroupChatStart). */
  task?: string;
  warnings: TraceWarning[];
}

/**
 * autogen-core AgentId text "type/key" -> our id: the type when the key is "default", the agent's name when AgentChat
 * made the type "<name>_<key>" for its team's key, else the whole id.
 */
function agentId(value: unknown): string | undefined {
  const text = asString(value);
  if (!text) return undefined;
  const slash = text.indexOf('/');
  if (slash <= 0) return text;
  const [type, key] = [text.slice(0, slash), text.slice(slash + 1)];
  if (key === 'default') return type;
  return type.length > key.length + 1 && type.endsWith(`_${key}`) ? type.slice(0, -key.length - 1) : text;
}

/** AgentChat's group-chat managers (RoundRobin, Selector, Swarm): relays that say nothing of their own. */
const GROUP_CHAT_MANAGER = /GroupChatManager$/;
const isManager = (id: string | undefined) => id !== undefined && GROUP_CHAT_MANAGER.test(id);

/** What autogen-core logs for an rpc reply it cannot serialise: no agent's words. */
const UNSERIALIZABLE = 'Message could not be serialized';

/**
 * AgentChat's group-chat events that are no agent's message: a request to speak (`{}` from the manager), the copy of a
 * reply the manager gets (`{response: {chat_message, …}}`, GroupChatAgentResponse, beside the GroupChatMessage every
 * participant gets), a nested team's copy of its result, the termination notice (a StopMessage), and a payload the
 * logger could not serialise.
 */
function isGroupChatControl(payload: unknown, sender: string | undefined): boolean {
  if (payload === UNSERIALIZABLE) return true;
  const event = asObject(payload);
  if (!event) return false;
  const fromManager = isManager(sender);
  // `agent_response` in AgentChat 0.4; a nested team answers its parent with GroupChatTeamResponse {result, name}.
  const agentResponse = asObject(event.response ?? event.agent_response)?.chat_message !== undefined;
  const teamResponse = typeof event.name === 'string' && Array.isArray(asObject(event.result)?.messages);
  return (fromManager && Object.keys(event).length === 0) || agentResponse || teamResponse || asObject(event.message)?.type === 'StopMessage';
}

class AutogenImporter implements Importer {
  private readonly sessions: Session[] = [];
  private readonly registry = new AgentRegistry();
  private seq = 0;
  private events = 0;
  /** The file is written through Python's `logging` (a prefixed line was seen). */
  private logging = false;
  /** autogen-core's prose lines about messages were seen (they are not read). */
  private sawProse = false;

  constructor(private readonly file?: string) {}

  addText(text: string, line: number): boolean {
    const banner = SESSION_BANNER.exec(text.trim());
    if (banner) {
      this.sessions.push(this.newSession(banner[1]));
      return true;
    }
    // The file logger also writes its own error lines ("[file_logger] Failed to ..."): keep them as warnings.
    if (/^\[\w+\]/.test(text.trim())) {
      this.current().warnings.push({ code: 'skipped-line', line, message: `log line skipped: ${text.trim().slice(0, 80)}` });
      return true;
    }
    // Through `logging`, autogen-core also says what it does in prose ("Publishing message of type ..."): no event; nor
    // are the lines a record goes on with (a traceback, a program's own printout) once the file is such a log.
    // A line that opens like a JSON record but does not parse is still an error (a cut event), not a continuation.
    if (LOGGING_PREFIX.test(text)) this.logging = true;
    if (this.logging && /Publishing message of type|Sending message of type/.test(text)) this.sawProse = true;
    return this.logging && !text.trimStart().startsWith('{');
  }

  add(value: unknown, line: number): void {
    const o = asObject(value);
    if (!o) throw new InputError('invalid-field', 'expected a JSON object per line (AG2 runtime log)', this.file, line);
    if (typeof o.event_name === 'string') this.addEvent(o, line);
    else if (o.type === 'Message' && 'payload' in o) this.addCoreMessage(o, line);
    else if (typeof o.agent_name === 'string') {
      const args = asObject(maybeJson(o.args));
      this.registry.see(o.agent_name, { role: asString(o.agent_type), systemPrompt: asString(args?.system_message) });
    }
    // Chat completions, wrappers, clients, function calls and other autogen-core events carry no agent-to-agent message.
  }

  private addEvent(o: Json, line: number): void {
    if (o.event_name !== 'received_message') return;
    this.events++;
    const state = asObject(maybeJson(o.json_state));
    const receiver = asString(o.source_name);
    const sender = asString(state?.sender);
    if (!state || !receiver || !sender) {
      throw new InputError('missing-field', 'received_message event without "source_name" (receiver) or json_state.sender; expected an AG2 runtime log', this.file, line, receiver ? 'json_state.sender' : 'source_name');
    }
    const session = this.current();
    const content = messageText(state.message);
    if (content === undefined || content.trim() === '') {
      session.warnings.push({ code: 'skipped-line', line, message: `message ${sender} -> ${receiver} has no text (tool call or empty) and is skipped` });
      return;
    }
    this.registry.see(sender);
    this.registry.see(receiver);
    const time = toMillis(o.timestamp);
    session.deliveries.push({ from: sender, to: [receiver], content, time: Number.isFinite(time) ? time : this.seq, seq: this.seq++, line, ts: asString(o.timestamp) });
  }

  private addCoreMessage(o: Json, line: number): void {
    this.events++;
    const session = this.current();
    const payload = maybeJson(o.payload);
    const sender = agentId(o.sender);
    if (isGroupChatControl(payload, sender)) return;
    const from = sender ?? asString(asObject(asObject(payload)?.message)?.source) ?? OUTSIDE;
    if (from === OUTSIDE) this.registry.see(OUTSIDE, { role: 'user' });
    const addressee = agentId(o.receiver);
    const viaManager = isManager(sender) || isManager(addressee);
    // AgentChat's group-chat manager relays what it is sent to every participant: a message to it is to them all.
    const publish = String(o.kind ?? '').includes('PUBLISH') || isManager(addressee);
    const receiver = publish ? undefined : addressee;
    const content = valueText(payload);
    // AgentChat's group chat is started with its task (GroupChatStart), which its manager hands every participant
    // again: the task of the run, as the OTLP reader takes a user's first request, not a message of round 0.
    if (content !== undefined && viaManager && Array.isArray(asObject(payload)?.messages)) {
      session.task ??= content;
      return;
    }
    if (content === undefined) {
      session.warnings.push({ code: 'skipped-line', line, message: `message from ${from} has an empty payload and is skipped` });
      return;
    }
    this.registry.see(from);
    if (receiver) this.registry.see(receiver);
    const delivery: Delivery = { from, to: receiver ? [receiver] : undefined, content, time: this.seq, seq: this.seq++, line };
    if (publish) session.broadcast.add(delivery);
    if (String(o.delivery_stage ?? '').includes('DELIVER')) session.delivered.push(delivery);
    else session.deliveries.push(delivery);
  }

  finish(): Episode[] {
    if (this.events === 0) {
      // autogen-core's prose ("Publishing message of type ...") names no sender and recipient to read a message by.
      const prose = this.sawProse ? 'autogen-core\'s "Publishing message of type ..." lines are there, but not its "Message" events (logger autogen_core.events, EVENT_LOGGER_NAME, at INFO), which are what is read; ' : '';
      throw new InputError('missing-field', `no agent messages found; ${prose}expected an AG2 runtime log with "received_message" events (autogen.runtime_logging.start(logger_type="file")) or autogen-core "Message" events`, this.file, undefined, 'event_name');
    }
    const episodes: Episode[] = [];
    for (const session of this.sessions) {
      const deliveries = session.deliveries.length > 0 ? session.deliveries : session.delivered;
      if (deliveries.length === 0) continue;
      const everyone = this.registry.ids().filter((id) => id !== OUTSIDE && !isManager(id));
      for (const d of deliveries) if (session.broadcast.has(d)) d.to = everyone.filter((id) => id !== d.from);
      const messages = assignCausalRounds(deliveries);
      const task = session.task !== undefined ? { question: session.task } : undefined;
      episodes.push(buildEpisode(session.id, { run: session.id, task, agents: this.registry.only(mentioned(messages)) }, messages, [], session.warnings));
    }
    if (episodes.length === 0) throw new InputError('no-content', 'the log has message events but none with text content', this.file);
    return episodes;
  }

  private current(): Session {
    if (this.sessions.length === 0) this.sessions.push(this.newSession('session-1'));
    return this.sessions[this.sessions.length - 1];
  }

  private newSession(id: string): Session {
    return { id, deliveries: [], delivered: [], broadcast: new Set(), warnings: [] };
  }
}

export const autogenFormat: FormatSpec = {
  title: 'AutoGen / AG2 runtime log',
  aliases: ['ag2'],
  detect: {
    record: (o) => 'event_name' in o || ('agent_name' in o && 'agent_type' in o) || ('invocation_id' in o && 'request' in o) || ('wrapper_id' in o && 'json_state' in o) || (o.type === 'Message' && 'payload' in o),
    keys: 'received_message events',
    signature: /"event_name"\s*:\s*"received_message"/,
    banner: new RegExp(`^Started new session with Session ID:|${CORE_LOGGER_LINE.source}`),
    loneObjectIsDocument: false,
  },
  expects: 'JSON lines with "received_message" events (source_name, json_state.sender, json_state.message) or autogen-core "Message" events',
  select: (path) => path.length === 1 && typeof path[0] === 'number',
  linePrefix: LOGGING_PREFIX,
  create: (file) => new AutogenImporter(file),
};
