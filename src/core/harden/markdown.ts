// Markdown prompt files: the prompt is the body after the front matter; placeholders mark interpolated content.

const FRONT_MATTER = /^(?:\uFEFF)?---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
// A `{{ … }}` placeholder names a value, perhaps through filters (`{{ steps.research.output | trim }}`); prose in double
// braces (`{{in deep mode: thread deps + upstream evidence}}`, a template's instructions to its filler) is none.
const PLACEHOLDERS = [/\{\{\s*([\w.$-]+(?:\s*\|[^{}]*?)?)\s*\}\}/g, /\$\{(?:input:)?([\w.-]+)(?::[^}\n]*)?\}/g];
/** The Generative Agents template format (MetaGPT's stanford_town): its loader keeps only what follows this line. */
const COMMENT_BLOCK_END = /^<commentblockmarker>###<\/commentblockmarker>[ \t]*(?:\r?\n|$)/m;

/** Offset just after the YAML front matter (0 when there is none). */
export function frontMatterEnd(text: string): number {
  return FRONT_MATTER.exec(text)?.[0].length ?? 0;
}

/**
 * Template placeholders in a Markdown prompt (`{{ name }}`, `${name}`, `${input:name}`), with their ranges. In a
 * fenced code block `${…}` is the sample's own code (a JavaScript template literal), so only `{{ … }}` counts there.
 */
export function markdownPlaceholders(text: string, from: number): { start: number; end: number; expression: string }[] {
  const found: { start: number; end: number; expression: string }[] = [];
  const fences = fencedRanges(text, from);
  for (const [i, pattern] of PLACEHOLDERS.entries()) {
    for (const match of text.slice(from).matchAll(pattern)) {
      const start = from + (match.index ?? 0);
      if (i > 0 && fences.some(([a, b]) => start >= a && start < b)) continue;
      found.push({ start, end: start + match[0].length, expression: match[1] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The [start, end) ranges of the closed fenced code blocks (``` or ~~~ lines) from `from` on. */
export function fencedRanges(text: string, from: number): [number, number][] {
  const ranges: [number, number][] = [];
  let open: number | undefined;
  for (const line of text.slice(from).matchAll(/^[ \t]*(?:```|~~~).*$/gm)) {
    const at = from + (line.index ?? 0);
    if (open === undefined) open = at;
    else {
      ranges.push([open, at + line[0].length]);
      open = undefined;
    }
  }
  return ranges;
}

/** An HTML or Jinja comment standing on its own lines (sticky: matched where the reading stands, no copy of the rest). */
const LEADING_COMMENT = /(?:<!--[\s\S]*?-->|\{#[\s\S]*?#\})[ \t]*(?:\r?\n|$)/y;
const BLANK_LINES = /(?:[ \t]*\r?\n)*/y;
/** Blanks and Jinja comments before a template's first statement. */
const JINJA_LEAD = /(?:\s|\{#[\s\S]*?#\})*/y;

/** The length of what the sticky `pattern` matches at `at` (0 when nothing). */
function lengthAt(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0].length ?? 0;
}
/** A Jinja template that opens by extending or including another: `{% extends "base.j2" %}`, `{%- include 'x.j2' -%}`. */
const JINJA_OPENING = /^\{%-?\s*(?:(extends|include)\s+["']([^"'\n]+)["']|(if|for)\b)/;

/** Whether a path is a Jinja template. */
export function isJinjaTemplate(path: string): boolean {
  return /\.(?:j2|jinja2?)$/i.test(path);
}

/** How a Jinja template's body opens: extending or including another template, or with a condition or loop. */
export type JinjaOpening = { how: 'extends' | 'include'; name: string } | { how: 'if' | 'for' };

/** The statement a Jinja template's body (from `from`, past blanks and comments) opens with, if it is one of those. */
export function jinjaOpening(text: string, from: number): JinjaOpening | undefined {
  const at = from + lengthAt(JINJA_LEAD, text, from);
  const match = JINJA_OPENING.exec(text.slice(at, at + 1000));
  if (!match) return undefined;
  return match[1] ? { how: match[1] as 'extends' | 'include', name: match[2] } : { how: match[3] as 'if' | 'for' };
}

/**
 * Where the immunity warning goes in a Markdown prompt: after the front matter (or a Generative Agents template's
 * comment block, which its loader drops), leading HTML comments and a leading `# Title` line, at the start of the
 * first paragraph; returns the offset and the text to insert there (a paragraph of its own).
 */
export function markdownInsertion(text: string, paragraph: string): { at: number; newText: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const commentBlock = COMMENT_BLOCK_END.exec(text);
  let at = commentBlock ? commentBlock.index + commentBlock[0].length : frontMatterEnd(text);
  const skipBlank = () => {
    at += lengthAt(BLANK_LINES, text, at);
  };
  skipBlank();
  // Leading HTML and Jinja comments are notes to the file's editors (pydantic-ai's workflow prompts): the prompt starts after them.
  for (let comment = lengthAt(LEADING_COMMENT, text, at); comment > 0; comment = lengthAt(LEADING_COMMENT, text, at)) {
    at += comment;
    skipBlank();
  }
  const heading = /^#[ \t][^\n]*(?:\n|$)/.exec(text.slice(at));
  if (heading) {
    at += heading[0].length;
    skipBlank();
  }
  if (at < text.length) return { at, newText: paragraph + eol + eol };
  const before = text.slice(0, at);
  const lead = before === '' || before.endsWith('\n\n') || before.endsWith('\r\n\r\n') ? '' : before.endsWith('\n') ? eol : eol + eol;
  return { at, newText: lead + paragraph + eol };
}
