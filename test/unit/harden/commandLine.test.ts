// Agent command lines read as their parsers would: which argument is the prompt, which the system prompt, and whether
// the run answers once (its output is then the agent's reply).
import * as assert from 'node:assert/strict';
import { readCommandLine } from '../../../src/core/harden/commandLine';

/** A command line of plain strings, with `$name` for an argument computed in the code. */
function read(...argv: string[]) {
  const parsed = readCommandLine(argv.map((arg) => ({ literal: arg.startsWith('$') ? undefined : arg, item: arg })));
  return parsed && { agent: parsed.agent.command, once: parsed.once, prompts: parsed.prompts.map((p) => `${p.role} ${p.item}`) };
}

describe('agent command lines', () => {
  it('reads the prompt after -p, wherever the flags put it, and skips the values of flags that take one', () => {
    assert.deepEqual(read('claude', '-p', '$task', '--output-format', 'text'), { agent: 'claude', once: true, prompts: ['message $task'] });
    assert.deepEqual(read('claude', '--model', '$model', '-p', '$task'), { agent: 'claude', once: true, prompts: ['message $task'] });
    assert.deepEqual(read('/usr/local/bin/claude', '--print', '--append-system-prompt', '$rules', '$task'), { agent: 'claude', once: true, prompts: ['system $rules', 'message $task'] });
  });

  it('lets a variadic flag take every argument up to the next flag or --', () => {
    assert.deepEqual(read('claude', '-p', '--allowedTools', 'Read', '$tool', '--', '$task'), { agent: 'claude', once: true, prompts: ['message $task'] });
  });

  it('reads stdin as the prompt of a run with no prompt argument, and an interactive run as no reply', () => {
    assert.deepEqual(read('claude', '-p', '--output-format', 'text'), { agent: 'claude', once: true, prompts: [] });
    assert.deepEqual(read('claude', '$task'), { agent: 'claude', once: false, prompts: ['message $task'] });
  });

  it('knows Gemini CLI takes its prompt as the value of -p or alone, and Codex after exec', () => {
    assert.deepEqual(read('gemini', '-m', 'gemini-2.5-pro', '-p', '$q'), { agent: 'gemini', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('gemini', '$q'), { agent: 'gemini', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('gemini', '-i', '$q'), { agent: 'gemini', once: false, prompts: ['message $q'] });
    assert.deepEqual(read('codex', 'exec', '--sandbox', 'read-only', '$q'), { agent: 'codex', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('codex', 'exec', '-'), { agent: 'codex', once: true, prompts: [] });
  });

  it("reads flags as each CLI's parser does: global flags before a subcommand, optional values, flags written with their value", () => {
    assert.deepEqual(read('codex', '-a', 'never', 'exec', '$q'), { agent: 'codex', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('codex', 'exec', 'resume', '--last', '$q'), { agent: 'codex', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('claude', '-p', '--debug', 'api', '$q'), { agent: 'claude', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('claude', '--debug', '-p', '$q'), { agent: 'claude', once: true, prompts: ['message $q'] });
    assert.deepEqual(read('claude', '-p', '--append-system-prompt=Be brief.', '$q'), { agent: 'claude', once: true, prompts: ['message $q'] });
    const interpolated = readCommandLine(['claude', '-p', '$flag', '$q'].map((arg) => ({ literal: arg.startsWith('$') ? undefined : arg, lead: arg === '$flag' ? '--system-prompt=' : undefined, item: arg })));
    assert.deepEqual(interpolated?.prompts.map((p) => `${p.role} ${p.item}`), ['message $q']);
  });

  it('starts no agent for any other program', () => {
    assert.equal(read('git', 'commit', '-m', '$message'), undefined);
    assert.equal(read('$program', '-p', '$task'), undefined);
  });
});
