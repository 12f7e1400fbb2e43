// tau2-bench results (`{info, tasks, simulations: [{id, task_id, trial, messages}]}`): each simulation a run of the
// simulated user, the assistant and one agent per tool, as tau-bench's trajectories are read. The fixture is a real
// results file from blakeelias/tau2-bench (airline-relaxed, grok-4-fast-reasoning), cut to its first two simulations.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { InputError } from '../../../src/core/errors';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import { importTraceText } from '../../../src/core/importers';
import { detectFormat } from '../../../src/core/importers/detect';
import { readAllTraces, readAnyTrace, type ReadAnyTraceOptions } from '../../../src/node/readAnyTrace';
import { flow } from './flow';

const fixture = path.resolve(__dirname, '../../fixtures/importers/tau2-bench-airline.json');
const text = readFileSync(fixture, 'utf8');
const results = JSON.parse(text) as { info: unknown; tasks: unknown[]; simulations: Record<string, unknown>[] };

/** The fixture's results with other simulations. */
const withSimulations = (simulations: unknown[]) => JSON.stringify({ ...results, simulations });

/** The InputError reading `body` (written to a file) fails with. */
async function failure(body: string, options: ReadAnyTraceOptions = {}): Promise<InputError> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ai-tau2-'));
  try {
    const file = path.join(dir, 'results.json');
    writeFileSync(file, body);
    await readAnyTrace(file, options);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return assert.fail('expected a rejection');
}

describe('importers: tau2-bench results', () => {
  it('reads each simulation of a real results file as a run of the user, the assistant and its tools (was: "cannot tell the trace format")', async () => {
    const { format, traces } = await readAllTraces(fixture);
    assert.equal(format, 'tau2');
    assert.deepEqual(traces.map((t) => t.id), ['task-8-trial-2', 'task-8-trial-1']);
    const [first, second] = traces.map((t) => t.trace);
    assert.deepEqual(first.agents.map((a) => a.id), ['user', 'assistant', 'tool:get_user_details', 'tool:get_reservation_details', 'tool:search_direct_flight', 'tool:book_reservation']);
    assert.deepEqual(first.agents.map((a) => a.role), ['user', 'assistant', 'tool', 'tool', 'tool', 'tool']);
    assert.match(first.task?.question ?? '', /^Hi, my name is Sophia Silva, and I'd like to book a flight\./);
    assert.deepEqual(flow(first, 40).slice(0, 7), [
      '0 assistant>user: Hi! How can I help you today?',
      "1 user>assistant: Hi, my name is Sophia Silva, and I'd lik",
      "2 assistant>user: I'm happy to help you book a one-way fli",
      '3 user>assistant: My user ID is sophia_silva_7557.',
      '4 assistant>tool:get_user_details: get_user_details(user_id="sophia_silva_7',
      '5 tool:get_user_details>assistant: {"user_id": "sophia_silva_7557", "name":',
      '6 assistant>tool:get_reservation_details: get_reservation_details(reservation_id="',
    ]);
    // One round per message (a sequential chat), every one of the file's messages read.
    assert.equal(first.messages.length, (results.simulations[0].messages as unknown[]).length);
    assert.equal(Math.max(...first.messages.map((m) => m.round)), first.messages.length - 1);
    // The booking call carries the arguments the assistant chose, nested values as JSON.
    const booking = first.messages.find((m) => m.to?.includes('tool:book_reservation'));
    assert.match(booking?.content ?? '', /^book_reservation\(user_id="sophia_silva_7557", origin="ORD", destination="PHL", flight_type="one_way", cabin="basic_economy", flights=\[\{"flight_number":"HAT271","date":"2024-05-26"\}\]/);
    assert.equal(second.messages.filter((m) => m.from.startsWith('tool:')).length, 8);
    // Benign runs: nothing flagged.
    for (const trace of [first, second]) assert.deepEqual((await analyzeTrace(trace)).agents.filter((a) => a.category !== 'benign').map((a) => a.id), []);
  });

  it('detects results from their simulations, or from the info at the head of a file too large to read whole', () => {
    assert.deepEqual(detectFormat(text, true), { format: 'tau2', layout: 'document' });
    // The first 4 KB hold only the run's info (the agent's policy, the user's guidelines).
    assert.ok(!text.slice(0, 4096).includes('"simulations"'));
    assert.deepEqual(detectFormat(text.slice(0, 4096), false), { format: 'tau2', layout: 'document' });
    assert.deepEqual(detectFormat(JSON.stringify(results), true), { format: 'tau2', layout: 'document' });
    assert.deepEqual(detectFormat(`${JSON.stringify(results)}\n${JSON.stringify(results)}\n`, true), { format: 'tau2', layout: 'lines' });
    assert.equal(importTraceText(JSON.stringify(results), { episode: 1 }).run, 'task-8-trial-1');
  });

  it("sends a tool the simulated user calls (tau2's user tools) from the user, and its result back to the user", () => {
    const simulation = {
      id: 'sim-1', task_id: 'mobile_data_issue', trial: 0, termination_reason: 'user_stop',
      messages: [
        { role: 'assistant', content: 'Hi! How can I help you today?', tool_calls: null, turn_idx: 0 },
        { role: 'user', content: 'My mobile data is not working.', tool_calls: null, turn_idx: 1 },
        { role: 'assistant', content: 'Please check your status bar.', tool_calls: null, turn_idx: 2 },
        { role: 'user', content: null, tool_calls: [{ id: 'call_u1', name: 'check_status_bar', arguments: {}, requestor: 'user' }], turn_idx: 3 },
        { id: 'call_u1', role: 'tool', content: 'Status bar: airplane mode on', requestor: 'user', error: false, turn_idx: 4 },
        { role: 'user', content: 'It says airplane mode is on.', tool_calls: null, turn_idx: 5 },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_a1', name: 'get_customer_by_phone', arguments: { phone_number: '555-0100' }, requestor: 'assistant' }], turn_idx: 6 },
        { id: 'call_a1', role: 'tool', content: '{"customer_id": "C1"}', requestor: 'assistant', error: false, turn_idx: 7 },
      ],
    };
    const trace = importTraceText(withSimulations([simulation]));
    assert.deepEqual(trace.agents.map((a) => a.id), ['user', 'assistant', 'tool:check_status_bar', 'tool:get_customer_by_phone']);
    assert.deepEqual(flow(trace, 40).slice(3), [
      '3 user>tool:check_status_bar: check_status_bar()',
      '4 tool:check_status_bar>user: Status bar: airplane mode on',
      '5 user>assistant: It says airplane mode is on.',
      '6 assistant>tool:get_customer_by_phone: get_customer_by_phone(phone_number="555-',
      '7 tool:get_customer_by_phone>assistant: {"customer_id": "C1"}',
    ]);
  });

  const bad: [string, () => string, ReadAnyTraceOptions, InputError['kind'], string, RegExp][] = [
    ['results with no simulations', () => withSimulations([]), {}, 'empty', 'simulations', /^no simulations found \("simulations" is missing or empty\); expected tau2-bench results/],
    ['a simulation without messages', () => withSimulations([{ ...results.simulations[0], messages: undefined }]), {}, 'missing-field', 'messages', /^simulation 0: no "messages"/],
    ["a full-duplex simulation (ticks, no messages)", () => withSimulations([{ ...results.simulations[0], messages: null, ticks: [] }]), {}, 'missing-field', 'messages', /full-duplex run's "ticks" are not read/],
    ['a simulation whose messages hold no chat', () => withSimulations([{ ...results.simulations[0], messages: [{ role: 'system', content: 'policy' }] }]), {}, 'no-content', 'messages', /^simulation 0: "messages" holds no user, assistant or tool message$/],
    ['a tau-bench file read as tau2', () => readFileSync(path.resolve(__dirname, '../../fixtures/importers/tau-bench.json'), 'utf8'), { from: 'tau2' }, 'empty', 'simulations', /expected tau2-bench results/],
    ['a tau-bench line read as tau2', () => '{"task_id": 1, "traj": []}\n{"task_id": 2, "traj": []}\n', { from: 'tau2' }, 'missing-field', 'messages', /^simulation 0: no "messages"/],
    ['an object without simulations read as tau2', () => '{"info": {}}\n{"info": {}}\n', { from: 'tau2' }, 'missing-field', 'simulations', /^missing "simulations"; expected tau2-bench results/],
    // Said of tau2, not as tau-bench's `run 0: missing "traj"`.
    ['a tau2 file read as tau-bench', () => text, { from: 'tau-bench' }, 'missing-field', 'traj', /^this is tau2-bench output \(simulations of messages\), not a tau-bench result: read it with --from tau2, or without --from$/],
  ];
  for (const [name, body, options, kind, field, message] of bad) {
    it(`rejects ${name} with kind ${kind} naming ${field}, in one line`, async () => {
      const error = await failure(body(), options);
      assert.equal(error.kind, kind, error.message);
      assert.equal(error.field, field);
      assert.match(error.message, message);
      assert.doesNotMatch(error.toString(), /\n|missing "traj"; expected a tau-bench/);
    });
  }
});
