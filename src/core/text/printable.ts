// Untrusted text made safe for a terminal or a one-line message: control characters (ESC sequences, carriage returns,
// backspaces, C1 controls) and invisible or bidirectional characters (Trojan Source) become visible \uXXXX escapes.

/** Bidi embeddings/overrides/isolates, zero-width characters, soft hyphen, BOM, invisible operators, tag characters. */
export const HIDDEN_CHARACTERS = /[\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0]|\udb40[\udc00-\udc7f]/g;

// Controls a terminal acts on (all C0 but tab and newline, DEL, C1) plus the hidden characters above.
const TERMINAL_UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]|${HIDDEN_CHARACTERS.source}`, 'g');
const LINE_UNSAFE = new RegExp(`[\\t\\n]|${TERMINAL_UNSAFE.source}`, 'g');

function escape(ch: string): string {
  return [...ch].map((c) => '\\u' + (c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')).join('');
}

/**
 * Text safe to write to a terminal: every control character except tab and newline, and every hidden character, is
 * written as a \uXXXX escape (inside JSON strings that is the same value, so JSON output stays valid).
 */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_UNSAFE, escape);
}

/** One line of untrusted text (an agent id, a run name, a file name): terminalSafe, and tabs and newlines escaped too. */
export function inline(text: string): string {
  return text.replace(LINE_UNSAFE, escape);
}

/** A word for a shell command line (quoted when it holds characters a shell would split or expand, or starts with
 * `=`, which zsh expands), made inline. */
export function shellWord(word: string): string {
  return inline(/^[\w./@%+:,-][\w./@%+=:,-]*$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`);
}

/** A name cut in the middle when too long: its head and its tail (`…/slack/user_task_1/injection_task_2`) stay. */
export function middleCut(name: string, width: number): string {
  const chars = [...name]; // by code point: an emoji's surrogate pair is never split
  if (chars.length <= width) return name;
  const tail = Math.ceil((width - 1) * 0.6);
  return `${chars.slice(0, width - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}
