// Jupyter notebooks: the code cells of a Python or TypeScript notebook (ipykernel; tslab, Deno), joined in order as one
// module (cells share a namespace),
// with a map from each offset of that source back to the notebook file, so findings and edits land in the JSON.
// The JSON is tokenized here (not JSON.parse) because each cell line's exact position in the file is needed.

/** The kernel languages whose cells are read; any other (C#, R, Julia ...) holds no code harden reads. */
export type NotebookLanguage = 'python' | 'typescript' | 'other';

/** A notebook's source and the way back to the file. */
export interface NotebookSource {
  language: NotebookLanguage;
  /** The code cells joined with line breaks. */
  code: string;
  /** File offset of each code offset (length code.length + 1). */
  offsets: Int32Array;
  /** Code offsets where a JSON string ends (an edit may not cross one). */
  breaks: number[];
}

interface JsonString {
  start: number;
  end: number;
  value: string;
  /** File offset of each decoded character, and of the closing quote at the end. */
  offsets: number[];
}

/** The offset just past the JSON string token starting at `start` (a quote), without decoding it; -1 when unterminated. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
    else if (c === 10) return -1;
  }
  return -1;
}

/** Decodes the JSON string token starting at `start` (a quote); undefined when it is malformed. */
function readString(text: string, start: number): JsonString | undefined {
  const offsets: number[] = [];
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      offsets.push(i);
      return { start, end: i + 1, value, offsets };
    }
    if (c === '\\') {
      const next = text[i + 1];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (next === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
        offsets.push(i);
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      if (!(next in simple)) return undefined;
      offsets.push(i);
      value += simple[next];
      i += 2;
      continue;
    }
    if (c === '\n') return undefined;
    offsets.push(i);
    value += c;
    i++;
  }
  return undefined;
}

/**
 * The code of a notebook's code cells and its kernel language (no code for another language), or undefined when the
 * file is not valid notebook JSON. Only the shape `{"cells": [{"cell_type": "code", "source": [...] | "..."}]}` is read.
 */
export function notebookSource(text: string): NotebookSource | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const root = parsed as { cells?: { cell_type?: string; source?: string | string[] }[]; metadata?: { kernelspec?: { language?: string }; language_info?: { name?: string } } };
  if (!root || typeof root !== 'object' || !Array.isArray(root.cells)) return undefined;
  const kernel = root.metadata?.language_info?.name ?? root.metadata?.kernelspec?.language ?? 'python';
  const language: NotebookLanguage = /^python/i.test(kernel) ? 'python' : /^(?:typescript|javascript)$/i.test(kernel) ? 'typescript' : 'other';
  if (language === 'other') return { language, code: '', offsets: Int32Array.from([0]), breaks: [] };
  // Walk the tokens to find each cell's source strings in file order (the parse above proved the JSON valid).
  const strings = cellSourceStrings(text);
  if (!strings) return undefined;
  let code = '';
  const offsets: number[] = [];
  const breaks: number[] = [];
  for (const cell of strings) {
    if (code.length > 0) {
      offsets.push(offsets[offsets.length - 1] ?? 0);
      code += '\n';
      breaks.push(code.length);
    }
    for (const s of cell) {
      for (let k = 0; k < s.value.length; k++) offsets.push(s.offsets[k]);
      code += s.value;
      breaks.push(code.length);
    }
  }
  const last = strings.at(-1)?.at(-1);
  offsets.push(last ? last.offsets[last.offsets.length - 1] : 0);
  return { language, code, offsets: Int32Array.from(offsets), breaks };
}

/** The source strings of every code cell, in order, from the notebook's tokens (root -> cells -> cell -> source). */
function cellSourceStrings(text: string): JsonString[][] | undefined {
  const cells: JsonString[][] = [];
  const stack: { object: boolean; key?: string; cellType?: string; source: JsonString[] }[] = [];
  const inCells = () => stack.length >= 3 && stack[0].key === 'cells' && !stack[1].object && stack[2].object;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Only keys and the cells' types and sources are decoded; the rest (outputs, base64 images of megabytes) is skipped.
      const end = stringEnd(text, i);
      if (end < 0) return undefined;
      const top = stack[stack.length - 1];
      let j = end;
      while (j < text.length && /\s/.test(text[j])) j++;
      const isKey = top?.object === true && text[j] === ':';
      const wanted = isKey || (inCells() && stack.length === 3 && (top.key === 'cell_type' || top.key === 'source')) || (inCells() && stack.length === 4 && stack[2].key === 'source' && !top.object);
      if (!wanted) {
        i = end;
        continue;
      }
      const s = readString(text, i);
      if (!s) return undefined;
      i = s.end;
      if (top?.object && text[j] === ':') {
        top.key = s.value;
        i = j + 1;
      } else if (inCells() && stack.length === 3 && top.key === 'cell_type') top.cellType = s.value;
      else if (inCells() && stack.length === 3 && top.key === 'source') top.source = [s];
      else if (inCells() && stack.length === 4 && stack[2].key === 'source' && !top.object) stack[2].source.push(s);
      continue;
    }
    if (c === '{' || c === '[') stack.push({ object: c === '{', source: [] });
    else if (c === '}' || c === ']') {
      if (stack.length === 3 && inCells() && c === '}' && stack[2].cellType === 'code') cells.push(stack[2].source);
      stack.pop();
    }
    i++;
  }
  return cells;
}

/** The file offset of a code offset. */
export function notebookOffset(source: NotebookSource, offset: number): number {
  return source.offsets[Math.max(0, Math.min(offset, source.offsets.length - 1))];
}

/** Text for insertion inside a notebook's JSON string (JSON-escaped). */
export function notebookText(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** True when a code range lies inside one JSON string of the file (so an edit there can be mapped). */
export function withinOneString(source: NotebookSource, start: number, end: number): boolean {
  return !source.breaks.some((b) => b > start && b < end);
}
