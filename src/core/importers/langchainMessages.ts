// LangChain messages saved as JSON (a chat history, an agent's state, an eval's seed conversation): `dumpd` records
// (`{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}`) or `messages_to_dict` records
// (`{"type": "ai", "data": {...}}`), as a JSON array or one a line. A file is one run: the user, the assistant and one
// agent per tool, as toolChat maps a chat.
import { InputError } from '../errors';
import { asObject, asString, assignCausalRounds, buildEpisode, messageText, type Json } from './common';
import { toolChat } from './toolChat';
import type { FormatSpec } from './types';

const EXPECTED = 'expected LangChain messages: a JSON array (or JSON Lines) of dumpd records {"lc": 1, "id": [..., "HumanMessage"], "kwargs"} or messages_to_dict records {"type": "human", "data"}';

/** The chat role of each message class (a streamed `…Chunk` is its class) and `messages_to_dict` type; a ChatMessage names its own. */
const ROLES: Record<string, string | undefined> = {
  HumanMessage: 'user', AIMessage: 'assistant', ToolMessage: 'tool', FunctionMessage: 'tool', SystemMessage: 'system', ChatMessage: undefined,
  human: 'user', ai: 'assistant', tool: 'tool', function: 'tool', system: 'system', chat: undefined,
};

/** A message's class or type, `…Chunk` dropped: `AIMessageChunk` → `AIMessage`. */
function classOf(o: Json): string | undefined {
  const name = o.lc === 1 && Array.isArray(o.id) ? o.id[o.id.length - 1] : o.type;
  return typeof name === 'string' ? name.replace(/(?<=Message)Chunk$/, '') : undefined;
}

/** A message's fields: `kwargs` of a dumpd record, `data` of a messages_to_dict one. */
function fieldsOf(o: Json): Json | undefined {
  const name = classOf(o);
  if (name === undefined || !Object.hasOwn(ROLES, name)) return undefined;
  if (o.lc === 1) return asObject(o.kwargs);
  const data = asObject(o.data);
  return data && 'content' in data ? data : undefined;
}

/** Tool calls as toolChat reads them: LangChain's `tool_calls` ({name, args, id}), else OpenAI's in `additional_kwargs`. */
function toolCallsOf(fields: Json): unknown[] | undefined {
  if (Array.isArray(fields.tool_calls) && fields.tool_calls.length > 0) {
    return fields.tool_calls.map((call: unknown) => ({ id: asObject(call)?.id, function: asObject(call)?.name, args: asObject(call)?.args }));
  }
  const extra = asObject(fields.additional_kwargs)?.tool_calls;
  return Array.isArray(extra) ? extra : undefined;
}

/** One message in toolChat's shape, or undefined for a record that is no LangChain message. */
function chatMessage(record: Json): Json | undefined {
  const fields = fieldsOf(record);
  if (!fields) return undefined;
  const role = ROLES[classOf(record)!] ?? asString(fields.role);
  return {
    role,
    content: messageText(fields) ?? '',
    tool_calls: toolCallsOf(fields),
    name: asString(fields.name),
    tool_call_id: asString(fields.tool_call_id),
  };
}

export const langchainMessagesFormat: FormatSpec = {
  title: 'LangChain messages (dumpd or messages_to_dict: a chat history, an agent state\'s messages)',
  aliases: ['lc-messages', 'langchain-messages'],
  detect: {
    record: (o) => fieldsOf(o) !== undefined,
    keys: '"lc": 1 with "id": [..., "HumanMessage"] and "kwargs"; or "type": "human" with "data"',
    signature: /^\s*\[\s*\{[^[\]]{0,200}?(?:"id"\s*:\s*\[\s*"langchain"\s*,\s*"schema"\s*,\s*"messages"|"type"\s*:\s*"(?:human|ai|system)"\s*,\s*"data"\s*:\s*\{)/,
    loneObjectIsDocument: false,
  },
  expects: 'a JSON array (or JSON Lines) of LangChain messages',
  select: (path) => path.length === 1 && typeof path[0] === 'number',
  create(file) {
    const messages: Json[] = [];
    let firstLine = 1;
    return {
      add(value, line) {
        const message = asObject(value) && chatMessage(asObject(value)!);
        if (!message) throw new InputError('invalid-field', `record ${messages.length} is not a LangChain message; ${EXPECTED}`, file, line);
        if (messages.length === 0) firstLine = line;
        messages.push(message);
      },
      finish() {
        const chat = toolChat(messages, firstLine);
        if (chat.deliveries.length === 0) throw new InputError('empty', `no human, AI or tool message found; ${EXPECTED}`, file);
        return [buildEpisode('langchain-messages', { run: 'langchain-messages', task: { question: chat.question }, agents: chat.agents }, assignCausalRounds(chat.deliveries), [], [])];
      },
    };
  },
};
