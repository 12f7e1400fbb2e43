// AgentDojo run logs (runs/<model>/<suite>/<user_task>/<attack>/<injection_task>.json, or those runs as JSON Lines):
// one assistant with tools; an injected tool result is the attack's source and an assistant that carried out the
// injected task (`security: true`) is infected from its first turn after reading it.
import { InputError } from '../errors';
import type { Category } from '../trace/types';
import { asObject, asString, assignCausalRounds, buildEpisode, perRunImporter, selectRuns } from './common';
import { ASSISTANT_AGENT, toolChat } from './toolChat';
import type { Episode, FormatSpec, SourcedRecord } from './types';

const EXPECTED = 'expected an AgentDojo run with messages, suite_name and injections';

/** Letters and digits only, lower-cased: an injection is found however the tool result re-wrapped, quoted or escaped it. */
function squash(text: string): string {
  return text.toLowerCase().replace(/\\[nrt]/g, ' ').replace(/[^\p{L}\p{N}]+/gu, '');
}

/** How much of an injection's opening must appear (a tool may cut a long result short). */
const INJECTION_KEY = 120;

/** The string arguments (4+ characters) of the calls written in an assistant's output, lower-cased. */
function callArguments(content: string): string[] {
  return [...content.matchAll(/\w+="((?:[^"\\]|\\.){4,})"/g)].map((m) => m[1].toLowerCase());
}

/**
 * One run: the chat as toolChat maps it, labelled from its injections and `security` (a run that does not list its
 * injections, as the Invariant Explorer's export of AgentDojo's runs, gets no labels). The run's fields may sit in its
 * `metadata` (that export); its header line, metadata only, is no run (undefined).
 */
function readRun(record: Record<string, unknown>, index: number, line: number, file?: string): Episode | undefined {
  const where = `run ${index}`;
  const metadata = asObject(record.metadata);
  if (metadata && !('messages' in record) && Object.keys(record).length === 1) return undefined;
  const run: Record<string, unknown> = { ...metadata, ...record };
  if (!Array.isArray(run.messages)) throw new InputError('missing-field', `${where}: missing "messages" (an array); ${EXPECTED}`, file, line, 'messages');
  const chat = toolChat(run.messages, line, asString(run.pipeline_name));
  if (chat.deliveries.length === 0) throw new InputError('no-content', `${where}: "messages" holds no user, assistant or tool message`, file, line, 'messages');
  const deliveries = assignCausalRounds(chat.deliveries);

  const injections = Object.values(asObject(run.injections) ?? {})
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .map((v) => squash(v).slice(0, INJECTION_KEY))
    .filter((key) => key !== '');
  const labels: SourcedRecord[] = [];
  const label = (round: number, agent: string, category: Category) => labels.push({ record: { type: 'label', round, agent, category }, line });
  if (asObject(run.injections)) for (const agent of chat.agents) label(0, agent.id, 'benign');
  let firstPoisoned: number | undefined;
  for (const d of deliveries) {
    if (d.from === ASSISTANT_AGENT || d.from === 'user' || !injections.some((text) => squash(d.content).includes(text))) continue;
    firstPoisoned ??= d.round!;
    label(d.round!, d.from, 'attacker');
  }
  if (run.security === true && firstPoisoned !== undefined) {
    // Infected from the first turn that carries out the injected task: a call argument the injection names and the
    // user's request does not; failing that, from its first turn after reading the injection.
    const raw = Object.values(asObject(run.injections) ?? {}).filter((v): v is string => typeof v === 'string').join('\n').toLowerCase();
    const asked = (chat.question ?? '').toLowerCase();
    const after = deliveries.filter((d) => d.from === ASSISTANT_AGENT && d.round! > firstPoisoned!);
    const acted = after.find((d) => callArguments(d.content).some((value) => raw.includes(value) && !asked.includes(value))) ?? after[0];
    if (acted) label(acted.round!, ASSISTANT_AGENT, 'infected');
  }
  const id = asString(run.path) ?? [run.pipeline_name ?? run.model, run.suite_name, run.user_task_id, run.attack_type ?? 'none', run.injection_task_id ?? 'none'].map((p) => asString(p) ?? '?').join('/');
  return buildEpisode(id, { run: id, task: { question: chat.question }, agents: chat.agents }, deliveries, labels, []);
}

export const agentDojoFormat: FormatSpec = {
  title: 'AgentDojo run logs',
  aliases: ['agent-dojo'],
  detect: {
    record: (o) => 'messages' in o && ('suite_name' in o || typeof asObject(o.metadata)?.suite_name === 'string'),
    keys: 'suite_name, injections, messages',
    signature: /"suite_name"\s*:/,
    loneObjectIsDocument: true,
  },
  expects: 'an AgentDojo run (or a JSON array / JSON Lines of runs) with suite_name, injections, messages, security',
  select: selectRuns,
  create: (file) => perRunImporter(file, EXPECTED, (run, index, line) => readRun(run, index, line, file)),
};
