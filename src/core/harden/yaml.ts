// Prompts in YAML agent configs: CrewAI agents.yaml (role, goal, backstory) and tasks.yaml, AutoGen component
// configs (system_message), Google ADK agent configs (instruction with {state} placeholders, output_key), and
// message lists (`- role: system` / `content:`). Read with a real YAML parser, so ranges are exact; edits keep the
// scalar's style where it can hold the text (block and double-quoted scalars) and re-quote it where it cannot.
import { errorMessage } from '../errors';
import { isMap, isScalar, isSeq, parseAllDocuments, type Pair } from 'yaml';
import { containsImmunityWarning, isInsideBoundary } from './detect';
import { jinjaPlaceholders, placeholders } from './resolve';
import { SYSTEM_KEYWORDS, type PlaceholderStyle } from './sinks';
import type { SinkRole } from './types';
import { DELEGATION_BOUNDARY_LABEL, DELEGATION_CLOSE_TAG, DELEGATION_OPEN_TAG, MIND_VIRUS_IMMUNITY_WARNING } from './texts';
import type { TextEdit } from './types';

/** A string scalar of a YAML file. */
export interface YamlScalar {
  key: string;
  start: number;
  end: number;
  type: string;
  value: string;
}

/** A prompt in a YAML file: its scalars (the first is where the warning goes). */
export interface YamlPrompt {
  role: SinkRole;
  framework: string;
  anchor: string;
  scalars: YamlScalar[];
  placeholders?: PlaceholderStyle;
  /** Placeholders the framework fills with another agent's output, with where it comes from. */
  delegated?: Readonly<Record<string, string>>;
  hardened: boolean;
}

/** What a YAML file holds for hardening. */
export interface YamlDiscovery {
  prompts: YamlPrompt[];
  /** `output_key:` values (ADK): state keys this file's agents write. */
  outputKeys: Map<string, string>;
  /** A parse error, when the file is not valid YAML. */
  error?: string;
}

const CREW_AGENT_KEYS = ['backstory', 'goal', 'role'];
const CREW_TASK_KEYS = ['description', 'expected_output'];
const SYSTEM_KEYS = new Set(SYSTEM_KEYWORDS);
const ADK_KEYS = new Set(['instruction', 'global_instruction', 'static_instruction']);
const ROLE_OF: Record<string, SinkRole | undefined> = { system: 'system', developer: 'system', user: 'message', human: 'message' };
/**
 * smolagents' prompt templates (`managed_agent:` in code_agent.yaml and the like): `task` is what a manager agent
 * hands its managed agent (`{{task}}`), `report` what the managed agent's final answer brings back (`{{final_answer}}`).
 */
const SMOLAGENTS_MANAGED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  task: { task: 'the task a manager agent hands over (smolagents managed_agent.task)' },
  report: { final_answer: "a managed agent's final answer (smolagents managed_agent.report)" },
};

/** Cheap test before parsing: does the text have a key prompt discovery reads? */
export function mayHoldPrompts(text: string): boolean {
  return /^[ \t-]*["']?(?:role|goal|backstory|description|content|system_message|system_prompt|systemPrompt|instructions?|global_instruction|static_instruction|system_instruction|developer_prompt|selector_prompt|append_system_prompt|output_key|managed_agent)["']?[ \t]*:/m.test(text);
}

function scalarOf(key: string, node: unknown): YamlScalar | undefined {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  return { key, start: node.range[0], end: node.range[1], type: String(node.type ?? 'PLAIN'), value: node.value };
}

function pairKey(pair: Pair): string | undefined {
  return isScalar(pair.key) && typeof pair.key.value === 'string' ? pair.key.value : undefined;
}

function hasLetters(value: string): boolean {
  return /\p{L}{2}/u.test(value);
}

/** Finds the prompts of a YAML file. Invalid YAML gives an error, not an exception. */
export function discoverYaml(text: string, fileName: string): YamlDiscovery {
  const result: YamlDiscovery = { prompts: [], outputKeys: new Map() };
  let docs;
  try {
    docs = parseAllDocuments(text, { uniqueKeys: false });
  } catch (error) {
    return { ...result, error: errorMessage(error) };
  }
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    if (doc.errors.length > 0) return { ...result, error: doc.errors[0].message.split('\n')[0] };
    const stack: { node: unknown; path: string }[] = [{ node: doc.contents, path: '' }];
    let guard = 0;
    while (stack.length > 0 && guard++ < 200_000) {
      const { node, path } = stack.pop()!;
      if (isSeq(node)) {
        node.items.forEach((item, i) => stack.push({ node: item, path: `${path}[${i}]` }));
        continue;
      }
      if (!isMap(node)) continue;
      const entries = new Map<string, unknown>();
      for (const pair of node.items as Pair[]) {
        const key = pairKey(pair);
        if (key !== undefined) entries.set(key, pair.value);
      }
      const where = path || fileName;
      const outputKey = scalarOf('output_key', entries.get('output_key'));
      if (outputKey) {
        const name = scalarOf('name', entries.get('name'))?.value;
        result.outputKeys.set(outputKey.value, name ? `written by agent ${name} (output_key)` : 'written by an agent (output_key)');
      }
      const claimed = new Set<string>();
      const crew = CREW_AGENT_KEYS.filter((k) => scalarOf(k, entries.get(k)));
      if (crew.includes('backstory') || (crew.includes('goal') && crew.includes('role'))) {
        const scalars = crew.map((k) => scalarOf(k, entries.get(k))!).filter((s) => hasLetters(s.value));
        if (scalars.length > 0) result.prompts.push(prompt('system', 'CrewAI', `${where} (agent)`, scalars, 'template'));
        crew.forEach((k) => claimed.add(k));
      }
      const task = CREW_TASK_KEYS.map((k) => scalarOf(k, entries.get(k))).filter((s): s is YamlScalar => s !== undefined);
      if (task.length === 2) {
        result.prompts.push(prompt('message', 'CrewAI', `${where} (task)`, task, 'template'));
        CREW_TASK_KEYS.forEach((k) => claimed.add(k));
      }
      if (path === 'managed_agent' || path.endsWith('.managed_agent')) {
        for (const [key, delegated] of Object.entries(SMOLAGENTS_MANAGED)) {
          const scalar = scalarOf(key, entries.get(key));
          if (!scalar || !hasLetters(scalar.value)) continue;
          result.prompts.push({ ...prompt('message', 'smolagents', `${where}.${key}`, [scalar], 'jinja'), delegated });
          claimed.add(key);
        }
      }
      const role = scalarOf('role', entries.get('role'));
      const content = scalarOf('content', entries.get('content'));
      const messageRole = role ? ROLE_OF[role.value.trim().toLowerCase()] : undefined;
      if (messageRole && content && hasLetters(content.value)) {
        result.prompts.push(prompt(messageRole, 'chat messages', `role: ${role!.value.trim()}`, [content]));
        claimed.add('content');
      }
      for (const [key, value] of entries) {
        if (claimed.has(key)) continue;
        if (SYSTEM_KEYS.has(key)) {
          const scalar = scalarOf(key, value);
          // mcp-agent's agent specs share ADK's `instruction` key; their MCP `server_names` tell them apart (ADK {state} is not theirs).
          const adk = ADK_KEYS.has(key) && !entries.has('server_names');
          const framework = adk ? 'Google ADK' : ADK_KEYS.has(key) ? 'mcp-agent' : 'agent config';
          if (scalar && hasLetters(scalar.value)) result.prompts.push(prompt('system', framework, `${where}.${key}`.replace(/^\./, ''), [scalar], adk ? 'adk-state' : undefined));
        }
        stack.push({ node: value, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return result;
}

function prompt(role: SinkRole, framework: string, anchor: string, scalars: YamlScalar[], style?: PlaceholderStyle): YamlPrompt {
  return { role, framework, anchor, scalars, placeholders: style, hardened: containsImmunityWarning(scalars.map((s) => s.value).join('\n')) };
}

/** Indentation of the content lines of a block scalar whose header starts at `start`, and where its content begins. */
function blockContent(text: string, scalar: YamlScalar): { at: number; indent: string } | undefined {
  const headerEnd = text.indexOf('\n', scalar.start);
  if (headerEnd === -1 || headerEnd >= scalar.end) return undefined;
  let at = headerEnd + 1;
  // Skip blank lines to the first content line.
  for (;;) {
    const lineEnd = text.indexOf('\n', at);
    const line = text.slice(at, lineEnd === -1 ? text.length : lineEnd);
    if (line.trim() !== '' || lineEnd === -1 || lineEnd >= scalar.end) break;
    at = lineEnd + 1;
  }
  const indent = /^[ \t]*/.exec(text.slice(at))![0];
  return { at, indent };
}

/** The edit that puts the immunity warning at the start of a scalar. */
export function yamlWarningEdit(text: string, scalar: YamlScalar): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED') {
    const content = blockContent(text, scalar);
    if (!content) return [];
    return [{ start: content.at + content.indent.length, end: content.at + content.indent.length, newText: `${MIND_VIRUS_IMMUNITY_WARNING}${eol}${eol}${content.indent}` }];
  }
  if (scalar.type === 'QUOTE_DOUBLE') return [{ start: scalar.start + 1, end: scalar.start + 1, newText: `${MIND_VIRUS_IMMUNITY_WARNING}\\n\\n` }];
  return [{ start: scalar.start, end: scalar.end, newText: JSON.stringify(`${MIND_VIRUS_IMMUNITY_WARNING}\n\n${scalar.value}`) }];
}

/** Whether the line above the one starting at `lineStart` is a content line of the block scalar that holds text. */
function contentLineAbove(text: string, scalar: YamlScalar, lineStart: number): boolean {
  if (lineStart - 1 <= text.indexOf('\n', scalar.start)) return false;
  return text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1).trim() !== '';
}

/** Whether the line after the one ending at `lineEnd` is a content line of the block scalar that holds text. */
function contentLineBelow(text: string, scalar: YamlScalar, lineEnd: number): boolean {
  if (lineEnd + 1 >= scalar.end) return false;
  const nextEnd = text.indexOf('\n', lineEnd + 1);
  return text.slice(lineEnd + 1, nextEnd === -1 ? scalar.end : Math.min(nextEnd, scalar.end)).trim() !== '';
}

/** The edits that wrap the placeholder at [start, end) of a scalar in the delegation boundary. */
export function yamlBoundaryEdits(text: string, scalar: YamlScalar, start: number, end: number): TextEdit[] {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (scalar.type === 'BLOCK_LITERAL' || scalar.type === 'BLOCK_FOLDED') {
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const atLineStart = start === lineStart + indent.length;
    const lineEnd = text.indexOf('\n', end);
    const atLineEnd = text.slice(end, lineEnd === -1 ? text.length : lineEnd).trim() === '';
    // A folded scalar joins lines with a space, so there its new lines are set apart by blank lines (folding reads one
    // as a line break), and the spaces where a line is broken go (a line left starting with a space would be more
    // indented). A more-indented line is kept as it is by folding, so it is edited as in a literal scalar.
    const folded = scalar.type === 'BLOCK_FOLDED' && indent === blockContent(text, scalar)?.indent;
    const next = folded ? eol + eol + indent : eol + indent;
    const spaceBefore = atLineStart ? 0 : /[ \t]*$/.exec(text.slice(lineStart, start))![0].length;
    const spaceAfter = atLineEnd ? 0 : /^[ \t]*/.exec(text.slice(end))![0].length;
    const tagged = `${DELEGATION_BOUNDARY_LABEL}${next}${DELEGATION_OPEN_TAG}${next}`;
    // On a line of its own, a folded placeholder is still set apart from text on the lines around it.
    const textAbove = folded && atLineStart && contentLineAbove(text, scalar, lineStart);
    const textBelow = folded && atLineEnd && lineEnd !== -1 && contentLineBelow(text, scalar, lineEnd);
    const opening = atLineStart ? (textAbove ? { start: lineStart, newText: `${eol}${indent}${tagged}` } : { start, newText: tagged }) : { start: start - spaceBefore, newText: `${next}${tagged}` };
    const after = `${next}${DELEGATION_CLOSE_TAG}${atLineEnd ? (textBelow ? eol : '') : next}`;
    return [{ start: opening.start, end: start, newText: opening.newText }, { start: end, end: end + spaceAfter, newText: after }];
  }
  if (scalar.type === 'QUOTE_DOUBLE') {
    return [
      { start, end: start, newText: `\\n${DELEGATION_BOUNDARY_LABEL}\\n${DELEGATION_OPEN_TAG}\\n` },
      { start: end, end, newText: `\\n${DELEGATION_CLOSE_TAG}\\n` },
    ];
  }
  const placeholder = text.slice(start, end);
  const at = scalar.value.indexOf(placeholder);
  if (at === -1) return [];
  const value = `${scalar.value.slice(0, at)}\n${DELEGATION_BOUNDARY_LABEL}\n${DELEGATION_OPEN_TAG}\n${placeholder}\n${DELEGATION_CLOSE_TAG}\n${scalar.value.slice(at + placeholder.length)}`;
  return [{ start: scalar.start, end: scalar.end, newText: JSON.stringify(value) }];
}

/** `{name}` placeholders (`{{ name }}` in a Jinja template) in a scalar's source, outside a boundary, with their file ranges. */
export function yamlPlaceholders(text: string, scalar: YamlScalar, style?: PlaceholderStyle): { name: string; start: number; end: number }[] {
  const literal = { contentStart: scalar.start, contentEnd: scalar.end } as Parameters<typeof placeholders>[1];
  const source = text.slice(scalar.start, scalar.end);
  const found = style === 'jinja' ? jinjaPlaceholders(text, literal) : placeholders(text, literal);
  return found.filter((p) => /^[A-Za-z_]/.test(p.name) && !isInsideBoundary(source, p.start - scalar.start, p.end - scalar.start));
}

