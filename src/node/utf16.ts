// UTF-16 text told from its first bytes, marked or not: the trace reader refuses it by name, the monitor decodes it.

/** How a file's first bytes are UTF-16: its byte order and whether a byte-order mark opens it. */
export interface Utf16 {
  encoding: 'utf-16le' | 'utf-16be';
  marked: boolean;
}

/**
 * UTF-16 text: its byte-order mark (not UTF-32's, FF FE 00 00), or NULs beside at least half of the characters (the
 * ASCII ones: `{"` as `{ " `) and almost none in their place (a letter beyond Latin-1, U+0100 as `00 01`, may put one
 * there; an all-zero file is no text, UTF-32 has NULs in both places).
 */
export function utf16Of(head: Uint8Array): Utf16 | undefined {
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', marked: true };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head[2] === 0 && head[3] === 0 ? undefined : { encoding: 'utf-16le', marked: true };
  const pairs = Math.min(64, Math.floor(head.length / 2));
  if (pairs < 2) return undefined;
  let even = 0;
  let odd = 0;
  for (let k = 0; k < pairs; k++) {
    if (head[2 * k] === 0) even++;
    if (head[2 * k + 1] === 0) odd++;
  }
  const [beside, inPlace] = even >= odd ? [even, odd] : [odd, even];
  if (beside * 2 < pairs || inPlace * 8 > beside) return undefined;
  // An ASCII character is its byte then a NUL in little-endian order, a NUL then its byte in big-endian.
  return { encoding: odd > even ? 'utf-16le' : 'utf-16be', marked: false };
}
