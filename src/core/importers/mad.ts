// Reads MAD's debate logs (Skytliang/Multi-Agents-Debate; Liang et al., "Encouraging Divergent Thinking in Large
// Language Models through Multi-Agent Debate"): one JSON object per debate, `players` holding each player's chat.
import { InputError } from '../errors';
import { asObject, asString, buildEpisode, messageRole, messageText, perRunImporter, selectRuns, type Delivery, type Json } from './common';
import type { Episode, FormatSpec } from './types';

const EXPECTED = 'expected a MAD debate (Multi-Agents-Debate): {source or debate_topic, players: {"Affirmative side": [{role, content}], ...}}';

/** The most players one debate is read with (MAD has three to five: the two sides, the moderator, a judge, a baseline). */
export const MAX_MAD_PLAYERS = 200;

/**
 * The most characters one debate's matching may scan: every user turn is searched for every other player's replies,
 * so the work is the user turns' length times the replies. MAD's published debates take at most 400,000; a hostile
 * file of long turns and many replies would otherwise take hours.
 */
export const MAX_MAD_MATCH_WORK = 100_000_000;

/** At most this many different replies are read in one user turn (MAD pastes one or two). */
export const MAX_CARRIED = 64;

/** A reply shorter than this is heard only where it stands apart from the words around it (not inside a word). */
const SHORT_REPLY = 40;
/** A reply shorter than this is never taken as heard ("Yes." is in every other turn). */
const MIN_HEARD = 8;

/** One assistant turn: its text and which of the player's turns (debate rounds) it belongs to. */
interface Reply {
  player: number;
  text: string;
  turn: number;
}

/** Whether `text` holds `reply` as MAD pastes a player's words into another's prompt: whole, and not inside a word. */
function carries(text: string, reply: string): boolean {
  if (reply.length >= SHORT_REPLY) return text.includes(reply);
  if (!text.includes(reply)) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${reply.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

/**
 * The other players' replies a user turn carries; one found only inside a longer one it carries is quoted there, not
 * heard. Each distinct text is looked for once (a debater repeats itself word for word; a hostile file, thousands of
 * times), and a turn carrying more distinct texts than MAX_CARRIED is refused: MAD's carry one or two.
 */
function heardIn(text: string, player: number, replies: readonly Reply[], where: string, file?: string, line?: number): Reply[] {
  const byText = new Map<string, Reply[]>();
  for (const r of replies) {
    if (r.player === player || r.text.length < MIN_HEARD) continue;
    const same = byText.get(r.text);
    if (same) same.push(r);
    else if (carries(text, r.text)) byText.set(r.text, [r]);
  }
  const texts = [...byText.keys()];
  if (texts.length > MAX_CARRIED) {
    throw new InputError('invalid-field', `${where}: a user turn carries ${texts.length} different replies (MAD's carry one or two, at most ${MAX_CARRIED} are read)`, file, line, 'players');
  }
  return texts.filter((t) => !texts.some((o) => o.length > t.length && o.includes(t))).flatMap((t) => byText.get(t)!);
}

/** What a record that is no MAD debate is, when it is another debate format's. */
function otherDebate(run: Json): string | undefined {
  if ('agent_responses' in run) return 'this is a multi-agent-attack debate row (agent_responses), not a MAD debate: read it with --from debate, or without --from';
  const values = Object.values(run);
  if (values.length > 0 && values.every(Array.isArray)) return "this looks like llm_multiagent_debate output (question -> [agent_contexts, answer]), not a MAD debate: read it with --from debate, or without --from";
  return undefined;
}

/** A player's role by its MAD name: the two sides debate, the moderator and the judge decide. */
function roleOf(name: string): string | undefined {
  if (/\b(?:affirmative|negative)\b/i.test(name)) return 'debater';
  if (/\bmoderator\b/i.test(name)) return 'moderator';
  if (/\bjudge\b/i.test(name)) return 'judge';
  return undefined;
}

/**
 * One debate: an agent per player that replied; a player's k-th turn is its round-k output, a turn being its replies
 * up to the next user turn that carries another player's words (a follow-up of the harness's own, asking for the
 * answer again with reasons, continues the turn); each turn goes to the players whose user turns carry it.
 */
function readDebate(run: Json, index: number, line: number, file?: string): Episode {
  const where = `debate ${index}`;
  if (!('players' in run)) {
    throw new InputError('missing-field', otherDebate(run) ?? `${where}: no "players" (player name -> chat of {role, content}); ${EXPECTED}`, file, line, 'players');
  }
  const players = asObject(run.players);
  if (!players) throw new InputError('invalid-field', `${where}: "players" is not an object of player name -> chat; ${EXPECTED}`, file, line, 'players');
  const entries = Object.entries(players);
  if (entries.length > MAX_MAD_PLAYERS) throw new InputError('invalid-field', `${where}: ${entries.length} players; a MAD debate is read with at most ${MAX_MAD_PLAYERS}`, file, line, 'players');
  // Ids as the file names the players; a name blank or repeated once trimmed gets its place in the file.
  const names = entries.map(([name], i, all) => {
    const id = name.trim();
    return id === '' || all.some(([other], j) => j < i && other.trim() === id) ? `player_${i}` : id;
  });
  const chats = entries.map(([name, chat]) => {
    if (!Array.isArray(chat)) throw new InputError('invalid-field', `${where}: player "${name}" is not a chat (an array of {role, content}); ${EXPECTED}`, file, line, 'players');
    return chat.map((turn) => ({ role: messageRole(turn), text: messageText(turn) ?? '' }));
  });

  const replies: Reply[] = chats.flatMap((chat, player) => chat.filter((t) => t.role === 'assistant').map((t) => ({ player, text: t.text.trim(), turn: 0 })));
  if (replies.length === 0) throw new InputError('no-content', `${where}: no player of the MAD debate has an assistant turn ("players" holds only system prompts and the harness's user turns), so there is nothing to analyse`, file, line, 'players');
  const userChars = chats.reduce((sum, chat) => sum + chat.reduce((n, t) => n + (t.role === 'user' ? t.text.length + 1 : 0), 0), 0);
  if (userChars * replies.length > MAX_MAD_MATCH_WORK) {
    const why = `${replies.length} replies to look for in ${userChars} characters of user turns (at most ${MAX_MAD_MATCH_WORK} characters of search; MAD's own debates need under 500,000)`;
    throw new InputError('invalid-field', `${where}: too large to tell who heard whom: ${why}; split the debate`, file, line, 'players');
  }

  // Walk each chat: a user turn carrying others' words opens the player's next turn once it has replied in this one.
  const carried = chats.map((chat, player) => chat.map((t) => (t.role === 'user' ? heardIn(t.text, player, replies, where, file, line) : [])));
  let next = 0;
  chats.forEach((chat, player) => {
    let turn = 0;
    let replied = false;
    chat.forEach((t, n) => {
      if (carried[player][n].length > 0 && replied) [turn, replied] = [turn + 1, false];
      if (t.role !== 'assistant') return;
      replies[next++].turn = turn;
      replied = true;
    });
  });
  // Who heard which turn. A debater often repeats itself word for word: a text several of a speaker's turns share is
  // heard as the earliest of them after the last one this listener heard (the next in the debate), else the latest.
  const heardBy = new Map<Reply, Set<number>>();
  carried.forEach((turns, listener) => {
    const last = new Map<number, number>();
    for (const found of turns) {
      // Per speaker and text, the turn heard: the earliest after the last one heard from that speaker, else the latest.
      const chosen = new Map<string, number>();
      for (const r of found) {
        const key = `${r.player}:${r.text}`;
        const heard = last.get(r.player) ?? -1;
        const current = chosen.get(key);
        const better = current === undefined || (r.turn > heard ? current <= heard || r.turn < current : current <= heard && r.turn > current);
        if (better) chosen.set(key, r.turn);
      }
      const kept = found.filter((r) => chosen.get(`${r.player}:${r.text}`) === r.turn);
      for (const r of kept) {
        last.set(r.player, Math.max(last.get(r.player) ?? -1, r.turn));
        heardBy.set(r, (heardBy.get(r) ?? new Set()).add(listener));
      }
    }
  });

  // One message per player and turn, its replies joined; rounds in order, players in the file's order within one.
  const turns = new Map<string, { player: number; turn: number; texts: string[]; to: Set<number> }>();
  for (const r of replies) {
    const key = `${r.turn}:${r.player}`;
    const entry = turns.get(key) ?? turns.set(key, { player: r.player, turn: r.turn, texts: [], to: new Set() }).get(key)!;
    if (r.text !== '') entry.texts.push(r.text);
    for (const p of heardBy.get(r) ?? []) entry.to.add(p);
  }
  const speakers = [...new Set(replies.map((r) => r.player))].sort((a, b) => a - b);
  const messages: Delivery[] = [...turns.values()]
    .sort((a, b) => a.turn - b.turn || a.player - b.player)
    .map((t, seq) => {
      const to = [...t.to].filter((p) => speakers.includes(p)).sort((a, b) => a - b).map((p) => names[p]);
      return { from: names[t.player], to, content: t.texts.join('\n\n'), time: t.turn, seq, line, round: t.turn };
    });
  const edges = [...new Set(messages.flatMap((m) => (m.to ?? []).map((to) => JSON.stringify([m.from, to]))))].map((e) => JSON.parse(e) as [string, string]);

  const agents = speakers.map((p) => {
    const system = chats[p].find((t) => t.role === 'system')?.text;
    return { id: names[p], role: roleOf(names[p]), systemPrompt: system || undefined };
  });
  const silent = names.filter((_, p) => !speakers.includes(p));
  const warnings = silent.length ? [{ code: 'skipped-line' as const, line, message: `${where}: player(s) ${silent.map((n) => `"${n}"`).join(', ')} have no assistant turn and are not agents of the run` }] : [];
  const question = asString(run.debate_topic) ?? asString(run.source);
  const answer = asString(run.reference) ?? asString(run['correct reference']);
  const id = `debate-${index}`;
  return buildEpisode(id, { run: id, task: { question, answer }, agents, edges }, messages, [], warnings);
}

export const madFormat: FormatSpec = {
  title: 'MAD debate logs (Multi-Agents-Debate)',
  aliases: ['multi-agents-debate'],
  detect: {
    record: (o) => {
      const players = asObject(o.players);
      const chats = players ? Object.values(players) : [];
      return chats.length > 0 && chats.every(Array.isArray) && chats.some((chat) => (chat as unknown[]).some((turn) => messageRole(turn) !== undefined));
    },
    keys: 'players -> chats of {role, content}',
    // Pretty-printed as MAD saves it (json.dumps(indent=4)): "players": {"Affirmative side": [{"role": ...
    signature: /"players"\s*:\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\[\s*\{\s*"(?:role|content)"/,
    loneObjectIsDocument: false,
  },
  expects: 'a MAD debate as Multi-Agents-Debate saves it (one JSON object; also a JSON array or JSON Lines of them) with players: {name: [{role, content}]}',
  select: selectRuns,
  create: (file) => perRunImporter(file, EXPECTED, (run, index, line) => readDebate(run, index, line, file)),
};
