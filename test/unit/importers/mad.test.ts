// MAD's debate logs (Skytliang/Multi-Agents-Debate: one JSON object per debate, `players` holding each player's chat):
// one agent per player, its k-th turn its round k, who hears whom read from the user turns that carry another's words.
// The fixture was written for this project in the layout of MAD's published debates (data/CommonMT/.../*.json).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { importTraceText, parseFormatName, type ImportFormat } from '../../../src/core/importers';
import { detectFormat } from '../../../src/core/importers/detect';
import { MAX_CARRIED, MAX_MAD_MATCH_WORK, MAX_MAD_PLAYERS } from '../../../src/core/importers/mad';
import { readAllTraces } from '../../../src/node/readAnyTrace';
import { flow } from './flow';
import { refusal } from './refusal';

const fixtures = path.resolve(__dirname, '../../fixtures/importers');
const fixture = path.join(fixtures, 'mad-debate.json');
const text = readFileSync(fixture, 'utf8');

type Chat = { role: string; content: string }[];
/** A fresh copy of the fixture's debate. */
const debate = () => JSON.parse(text) as Record<string, unknown> & { players: Record<string, Chat> };
/** The fixture's assistant replies of one player, in order. */
const repliesOf = (player: string) => debate().players[player].filter((t) => t.role === 'assistant').map((t) => t.content);


const AFF = 'Affirmative side';
const NEG = 'Negative side';

describe('importers: MAD debate logs', () => {
  it('reads a debate as one run: an agent per player, rounds as the debate goes, each turn to the players that hear it (was: "cannot tell the trace format"; with --from mad, "agent_responses" must be a non-empty array)', async () => {
    const { format, traces } = await readAllTraces(fixture);
    assert.equal(format, 'mad');
    assert.equal(traces.length, 1);
    const { trace } = traces[0];
    assert.equal(trace.run, 'debate-0');
    assert.deepEqual(trace.agents.map((a) => [a.id, a.role]), [[AFF, 'debater'], [NEG, 'debater'], ['Moderator', 'moderator'], ['Judge', 'judge']]);
    assert.match(trace.agents[0].systemPrompt ?? '', /^You take part in a translation debate/);
    assert.deepEqual(trace.task, { question: '她的话很有分量。', answer: 'Her words carry a lot of weight.' });
    // The affirmative's base translation and the restatement the harness asked for are one turn; the negative hears the
    // affirmative, the affirmative the negative's round 0, the moderator both in each round, the judge round 0 of both
    // (MAD gives it the first arguments); nobody hears the moderator or the judge, or the negative's last reply.
    assert.deepEqual(flow(trace, 32), [
      `0 ${AFF}>${NEG},Moderator,Judge: Her words carry a lot of weight.`,
      `0 ${NEG}>${AFF},Moderator,Judge: I would translate it as "What sh`,
      "0 Moderator>: {'Whether there is a preference'",
      '0 Judge>: Affirmative: "Her words carry a ',
      `1 ${AFF}>${NEG},Moderator: "Influential" is correct but fla`,
      `1 ${NEG}>Moderator: I accept that the idiom exists i`,
      "1 Moderator>: {'Whether there is a preference'",
    ]);
    const [base, restated] = repliesOf(AFF);
    assert.equal(trace.messages[0].content, `${base}\n\n${restated}`);
    // The judge's two replies (the candidates, then its verdict) are its one turn.
    assert.equal(trace.messages[3].content, repliesOf('Judge').join('\n\n'));
    // Only assistant turns are read: no system prompt or harness instruction is anyone's words.
    assert.ok(trace.messages.every((m) => !/Do you agree with me|You disagree with this translation|Say your translation again/.test(m.content)));
    assert.deepEqual(trace.edges, [[AFF, NEG], [AFF, 'Moderator'], [AFF, 'Judge'], [NEG, AFF], [NEG, 'Moderator'], [NEG, 'Judge']]);
    // A benign debate: nothing flagged.
    assert.deepEqual((await analyzeTrace(trace)).agents.filter((a) => a.category !== 'benign').map((a) => a.id), []);
  });

  it("reads debate4tran.py's current layout: a Baseline player whose translation opens the affirmative's prompt is heard by the affirmative alone", () => {
    const doc = debate();
    const [base] = repliesOf(AFF);
    const affirmative = doc.players[AFF];
    const current = {
      source: doc.source, reference: 'Her words carry a lot of weight.', base_translation: base, debate_translation: '', success: true,
      players: {
        Baseline: [{ role: 'user', content: `Translate this Chinese sentence into English: ${String(doc.source)}` }, { role: 'assistant', content: base }],
        [AFF]: [affirmative[0], { role: 'user', content: `Your translation is: ${base} Say it again and give your reasons.` }, ...affirmative.slice(4)],
        [NEG]: doc.players[NEG], Moderator: doc.players.Moderator, Judge: doc.players.Judge,
      },
    };
    const trace = importTraceText(JSON.stringify(current, null, 4));
    assert.deepEqual(trace.agents.map((a) => [a.id, a.role, a.systemPrompt !== undefined]), [['Baseline', undefined, false], [AFF, 'debater', true], [NEG, 'debater', true], ['Moderator', 'moderator', true], ['Judge', 'judge', true]]);
    assert.equal(trace.task?.answer, 'Her words carry a lot of weight.');
    // The others' prompts carry the translation only inside the affirmative's restatement, which quotes it.
    assert.deepEqual(flow(trace, 12).slice(0, 2), ['0 Baseline>Affirmative side: Her words ca', `0 ${AFF}>${NEG},Moderator,Judge: I keep my tr`]);
  });

  it('hears a reply a debater repeats word for word as the next of its turns, not every turn with that text', () => {
    const doc = debate();
    const neg = doc.players[NEG];
    const [first] = repliesOf(NEG);
    neg[4].content = first;
    const moderator = doc.players.Moderator;
    moderator[3].content = moderator[3].content.replace(repliesOf(NEG)[1], first);
    const trace = importTraceText(JSON.stringify(doc));
    const negative = trace.messages.filter((m) => m.from === NEG).map((m) => [m.round, m.to]);
    // The affirmative heard the first only; the moderator both.
    assert.deepEqual(negative, [[0, [AFF, 'Moderator', 'Judge']], [1, ['Moderator']]]);
  });

  it("reads a hostile debate of 40,000 copies of one reply that one user turn carries at once, not in minutes (a review's repro took 87 s; 200,000 overflowed the stack and was called too deeply nested)", () => {
    const doc = { source: 'x', players: { 'Affirmative side': [{ role: 'user', content: 'abcdefgh' }, { role: 'assistant', content: 'Fine by me then.' }], 'Negative side': Array.from({ length: 40_000 }, () => ({ role: 'assistant', content: 'abcdefgh' })) } };
    const trace = importTraceText(JSON.stringify(doc));
    assert.deepEqual(trace.messages.filter((m) => m.from === NEG).map((m) => m.to), [[AFF]]);
  });

  it("takes an interactive debate's debate_topic as the task", () => {
    const doc = debate();
    delete doc.source;
    delete doc['correct reference'];
    const trace = importTraceText(JSON.stringify({ debate_topic: 'Is 分量 here weight or influence?', ...doc }));
    assert.equal(trace.task?.question, 'Is 分量 here weight or influence?');
    assert.equal(trace.task?.answer, undefined);
  });

  it('detects a debate pretty-printed as MAD saves it, on one line, and as a JSON array or JSON Lines of debates', () => {
    assert.deepEqual(detectFormat(text, true), { format: 'mad', layout: 'document' });
    // The head of a debate too long to parse from it: the players' opening gives it away.
    assert.deepEqual(detectFormat(text.slice(0, text.indexOf('"Negative side"')), false), { format: 'mad', layout: 'document' });
    const one = JSON.stringify(debate());
    assert.deepEqual(detectFormat(one, true), { format: 'mad', layout: 'lines' });
    assert.deepEqual(detectFormat(JSON.stringify([debate(), debate()], null, 2), true), { format: 'mad', layout: 'document' });
    assert.deepEqual(detectFormat(`${one}\n${one}\n`, true), { format: 'mad', layout: 'lines' });
    assert.equal(importTraceText(`${one}\n${one}\n`, { episode: 1 }).run, 'debate-1');
  });

  it('is --from mad (and multi-agents-debate); debate and multiagent-debate stay the multi-agent-attack and Du et al. importer', async () => {
    assert.equal(parseFormatName('mad'), 'mad');
    assert.equal(parseFormatName('Multi-Agents-Debate'), 'mad');
    assert.equal(parseFormatName('debate'), 'debate');
    assert.equal(parseFormatName('multiagent-debate'), 'debate');
    // multi-agent-attack's rows still read with --from debate.
    const { format, traces } = await readAllTraces(path.join(fixtures, 'debate-rows.jsonl'), { from: 'debate' });
    assert.equal(format, 'debate');
    assert.ok(traces.length > 0);
  });

  const noReplies = () => {
    const doc = debate();
    for (const chat of Object.values(doc.players)) chat.splice(0, chat.length, ...chat.filter((t) => t.role !== 'assistant'));
    return JSON.stringify(doc);
  };
  const rows = readFileSync(path.join(fixtures, 'debate-rows.jsonl'), 'utf8');
  const bad: [string, () => string, ImportFormat | undefined, InputError['kind'], string, RegExp][] = [
    ['an object without players', () => '{"source": "她的话很有分量。"}', 'mad', 'missing-field', 'players', /^debate 0: no "players" \(player name -> chat of \{role, content\}\); expected a MAD debate \(Multi-Agents-Debate\)/],
    ['players that are no object', () => '{"players": [[{"role": "assistant", "content": "hi"}]]}', 'mad', 'invalid-field', 'players', /^debate 0: "players" is not an object of player name -> chat; expected a MAD debate/],
    ['a player whose chat is no array', () => '{"players": {"Moderator": "hello"}}', 'mad', 'invalid-field', 'players', /^debate 0: player "Moderator" is not a chat \(an array of \{role, content\}\)/],
    ['a debate with no assistant turn', noReplies, undefined, 'no-content', 'players', /^debate 0: no player of the MAD debate has an assistant turn \("players" holds only system prompts and the harness's user turns\), so there is nothing to analyse$/],
    [`a debate of more than ${MAX_MAD_PLAYERS} players`, () => JSON.stringify({ players: Object.fromEntries(Array.from({ length: MAX_MAD_PLAYERS + 1 }, (_, i) => [`p${i}`, [{ role: 'assistant', content: 'x' }]])) }), 'mad', 'invalid-field', 'players', new RegExp(`^debate 0: ${MAX_MAD_PLAYERS + 1} players; a MAD debate is read with at most ${MAX_MAD_PLAYERS}`)],
    ['a debate too large to tell who heard whom', () => JSON.stringify({ players: { A: Array.from({ length: 1001 }, () => ({ role: 'assistant', content: 'a reply' })), B: [{ role: 'user', content: 'x'.repeat(100_000) }] } }), 'mad', 'invalid-field', 'players', new RegExp(`^debate 0: too large to tell who heard whom: 1001 replies to look for in 100001 characters of user turns \\(at most ${MAX_MAD_MATCH_WORK} characters of search`)],
    [`a user turn carrying more than ${MAX_CARRIED} different replies`, () => JSON.stringify({ players: { A: Array.from({ length: MAX_CARRIED + 1 }, (_, i) => ({ role: 'assistant', content: `reply number ${i}` })), B: [{ role: 'user', content: Array.from({ length: MAX_CARRIED + 1 }, (_, i) => `reply number ${i}`).join(' | ') }, { role: 'assistant', content: 'ok' }] } }), 'mad', 'invalid-field', 'players', new RegExp(`^debate 0: a user turn carries ${MAX_CARRIED + 1} different replies \\(MAD's carry one or two, at most ${MAX_CARRIED} are read\\)$`)],
    ['a file of no debate', () => '[]', 'mad', 'empty', '', /^no runs found; expected a MAD debate/],
    // Said of the format the file is, not as the other importer's missing field.
    ["multi-agent-attack's rows read as MAD", () => rows, 'mad', 'missing-field', 'players', /^this is a multi-agent-attack debate row \(agent_responses\), not a MAD debate: read it with --from debate, or without --from$/],
    ["Du et al.'s object read as MAD", () => readFileSync(path.join(fixtures, 'debate-du.json'), 'utf8'), 'mad', 'missing-field', 'players', /^this looks like llm_multiagent_debate output .*: read it with --from debate, or without --from$/],
    ['a MAD debate read as a multi-agent-attack row', () => text, 'debate', 'missing-field', 'agent_responses', /^this is a MAD debate \(players: one chat per player\), not a multi-agent-attack row: read it with --from mad, or without --from$/],
  ];
  for (const [name, body, from, kind, field, message] of bad) {
    it(`rejects ${name} with kind ${kind}${field ? ` naming ${field}` : ''}, in one line`, () => {
      const error = refusal(body(), from);
      assert.equal(error.kind, kind, error.message);
      assert.equal(error.field ?? '', field);
      assert.match(error.message, message);
      assert.doesNotMatch(error.toString(), /\n|must be a non-empty array of chats/);
    });
  }
});
