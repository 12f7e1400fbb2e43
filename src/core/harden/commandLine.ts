// Agent command lines run from code (`subprocess.run(["claude", "-p", prompt])`, `execFileSync("claude", ["-p", prompt],
// { input })`): which process calls start one, and which of their arguments is a prompt or a system prompt. Described
// once, here, as data; discovery reads the prompts, resolution treats what such a call returns as the agent's reply.
import type { CodeLanguage } from './lexer';
import type { SinkRole } from './types';

/** An agent's command-line interface, as its documentation gives it. */
export interface CommandLineAgent {
  framework: string;
  /** The program's name (argv[0], or its last path part). */
  command: string;
  /** What makes it answer once and exit, reading its prompt from a positional argument or stdin: a flag or a subcommand. */
  once: readonly string[];
  /** Whether a positional prompt alone makes it answer once (Gemini CLI), rather than open an interactive session. */
  positionalOnce: boolean;
  /** Subcommand words that may follow a `once` subcommand and are no prompt (`codex exec resume`). */
  subcommands: readonly string[];
  /** Flags whose value is the prompt itself (Gemini CLI's `-p "…"`); `interactiveFlags` give one and keep the session open. */
  promptFlags: readonly string[];
  interactiveFlags: readonly string[];
  /** Flags whose value is a system prompt. */
  systemFlags: readonly string[];
  /** Flags that take one value that is no prompt. */
  valueFlags: readonly string[];
  /** Flags whose value is optional: they take the next argument unless it is a flag, as Commander parses them. */
  optionalValueFlags: readonly string[];
  /** Flags that take every argument up to the next flag. */
  variadicFlags: readonly string[];
  /** Its rows of the sink table (docs/hardening.md), each with the fixture that exercises it. */
  sinks: readonly { role: SinkRole; form: string; fixture: string }[];
}

/** The agent CLIs whose prompts `harden` reads where code runs them. */
export const COMMAND_LINE_AGENTS: readonly CommandLineAgent[] = [
  {
    framework: 'Claude Code CLI',
    command: 'claude',
    once: ['-p', '--print'],
    positionalOnce: false,
    subcommands: [],
    promptFlags: [],
    interactiveFlags: [],
    systemFlags: ['--system-prompt', '--append-system-prompt'],
    valueFlags: [
      '--model', '--fallback-model', '--output-format', '--input-format', '--json-schema', '--max-turns', '--max-budget-usd', '--permission-mode',
      '--permission-prompt-tool', '--resume', '-r', '--session-id', '--setting-sources', '--settings', '--agents', '--agent', '--system-prompt-file',
      '--append-system-prompt-file', '--betas',
    ],
    optionalValueFlags: ['--debug', '-d'],
    variadicFlags: ['--allowedTools', '--allowed-tools', '--disallowedTools', '--disallowed-tools', '--tools', '--add-dir', '--mcp-config', '--plugin-dir'],
    sinks: [
      { role: 'message', form: 'subprocess.run(["claude", "-p", prompt]) or input=prompt, Popen([...]).communicate(prompt) / execFileSync("claude", ["-p", prompt], { input }), spawn, child.stdin.write(prompt)', fixture: 'agent_cli.py' },
      { role: 'system', form: '["claude", "-p", "--system-prompt" | "--append-system-prompt", text]', fixture: 'agent_cli.ts' },
    ],
  },
  {
    framework: 'Gemini CLI',
    command: 'gemini',
    once: ['-p', '--prompt'],
    positionalOnce: true,
    subcommands: [],
    promptFlags: ['-p', '--prompt'],
    interactiveFlags: ['-i', '--prompt-interactive'],
    systemFlags: [],
    valueFlags: ['-m', '--model', '--approval-mode', '-o', '--output-format', '--include-directories', '-e', '--extensions', '--allowed-tools', '--allowed-mcp-server-names'],
    optionalValueFlags: [],
    variadicFlags: [],
    sinks: [{ role: 'message', form: 'subprocess.run(["gemini", prompt]) / ["gemini", "-p", prompt]', fixture: 'agent_cli.py' }],
  },
  {
    framework: 'Codex CLI',
    command: 'codex',
    once: ['exec', 'e'],
    positionalOnce: false,
    subcommands: ['resume'],
    promptFlags: [],
    interactiveFlags: [],
    systemFlags: [],
    valueFlags: [
      '-m', '--model', '-c', '--config', '-s', '--sandbox', '-C', '--cd', '-p', '--profile', '-o', '--output-last-message', '--output-schema', '--color',
      '--add-dir', '-a', '--ask-for-approval',
    ],
    optionalValueFlags: [],
    variadicFlags: ['-i', '--image'],
    sinks: [{ role: 'message', form: 'subprocess.run(["codex", "exec", prompt])', fixture: 'agent_cli.py' }],
  },
];

/** How a process call takes its command line: a list (`subprocess.run([…])`), each argument (`create_subprocess_exec(…)`), or a program and a list (`spawn(cmd, [...])`). */
export type ArgvShape = 'list' | 'arguments' | 'program-and-list';

/** A call that starts a process, and where its command line and stdin text are. */
export interface ProcessCall {
  callee: RegExp;
  languages: readonly CodeLanguage[];
  argv: ArgvShape;
  /** The keyword (Python) or options property (TS/JS) holding text written to the process's stdin, where it takes one. */
  input?: string;
}

/** Calls that start a process with a command line given as a list (no shell). */
export const PROCESS_CALLS: readonly ProcessCall[] = [
  { callee: /^(?:run|check_output)$/, languages: ['python'], argv: 'list', input: 'input' },
  { callee: /^(?:Popen|call|check_call)$/, languages: ['python'], argv: 'list' },
  { callee: /^create_subprocess_exec$/, languages: ['python'], argv: 'arguments' },
  { callee: /^(?:spawnSync|execFileSync|execa|execaSync)$/, languages: ['typescript'], argv: 'program-and-list', input: 'input' },
  { callee: /^(?:spawn|execFile)$/, languages: ['typescript'], argv: 'program-and-list' },
];

/** One argument of a command line: its text where it is a plain string, and what it is in the code. */
export interface ArgvItem<T> {
  literal: string | undefined;
  /** An interpolated string's text before its first hole (`f"--model={m}"`: a flag with its value). */
  lead?: string;
  item: T;
}

/** A prompt a command line passes: a system prompt or the user's message, and the flag that carries it. */
export interface CommandLinePrompt<T> {
  role: SinkRole;
  flag: string;
  item: T;
}

/** The agent a command line starts, whether it answers once and exits (its output is then the agent's reply), and its prompts. */
export interface CommandLine<T> {
  agent: CommandLineAgent;
  once: boolean;
  prompts: CommandLinePrompt<T>[];
  /** Where the call takes the text written to the process's stdin (ProcessCall.input), set by the caller. */
  stdin?: string;
}

/** The agent CLI a command line starts, read as its parser would; undefined when it starts none. */
export function readCommandLine<T>(argv: readonly ArgvItem<T>[]): CommandLine<T> | undefined {
  const program = argv[0]?.literal?.replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd)$/i, '');
  const agent = COMMAND_LINE_AGENTS.find((a) => a.command === program);
  if (!agent) return undefined;
  const prompts: CommandLinePrompt<T>[] = [];
  const positional: ArgvItem<T>[] = [];
  let once = false;
  let interactive = false;
  for (let i = 1; i < argv.length; i++) {
    // A flag written with its value (`--system-prompt=…`, `f"--model={m}"`) is a flag, not a prompt. Its value is not
    // read: a warning inserted there would land in the flag's name.
    const text = argv[i].literal ?? (argv[i].lead?.startsWith('-') ? argv[i].lead : undefined);
    if (text === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (text === undefined || !text.startsWith('-') || text === '-') {
      const word = positional.length === 0 && text !== undefined;
      if (word && agent.once.includes(text)) once = true;
      else if (!(word && once && agent.subcommands.includes(text))) positional.push(argv[i]);
      continue;
    }
    const [flag, inline] = text.includes('=') ? [text.slice(0, text.indexOf('=')), true] : [text, false];
    if (agent.once.includes(flag)) once = true;
    if (agent.interactiveFlags.includes(flag)) interactive = true;
    const role: SinkRole | undefined = agent.systemFlags.includes(flag) ? 'system' : agent.promptFlags.includes(flag) || agent.interactiveFlags.includes(flag) ? 'message' : undefined;
    if (role && !inline && i + 1 < argv.length) prompts.push({ role, flag, item: argv[++i].item });
    else if (agent.variadicFlags.includes(flag) && !inline) while (i + 1 < argv.length && !argv[i + 1].literal?.startsWith('-')) i++;
    else if (agent.valueFlags.includes(flag) && !inline) i++;
    else if (agent.optionalValueFlags.includes(flag) && !inline && i + 1 < argv.length && !argv[i + 1].literal?.startsWith('-')) i++;
  }
  // A subcommand word is no prompt (`codex exec PROMPT`); neither is `-` (read stdin).
  const given = positional.filter((arg) => arg.literal !== '-');
  if (!prompts.some((p) => p.role === 'message')) for (const arg of given) prompts.push({ role: 'message', flag: agent.command, item: arg.item });
  return { agent, once: !interactive && (once || (agent.positionalOnce && given.length > 0)), prompts };
}
