// Encodes plain text for insertion inside an existing string literal, so the code still compiles and the value reads as the text.
import type { StringLiteral } from './lexer';

/**
 * The source form of `value` inside `literal`: backslashes, the literal's quote, `${` (template literals) and braces
 * (f-strings) escaped; newlines written as `\n` in single-line literals. Undefined when no faithful form exists
 * (a raw string cannot hold a backslash or its own quote character).
 */
export function encodeForLiteral(value: string, literal: StringLiteral): string | undefined {
  const quoteChar = literal.quote[0];
  let out = value;
  if (literal.raw) {
    if (out.includes('\\') || out.includes(quoteChar) || (quoteChar === '`' && out.includes('${'))) return undefined;
    if (!literal.multiline) out = out.replace(/(?:\r?\n)+/g, ' ');
  } else {
    out = out.replace(/\\/g, '\\\\').split(quoteChar).join(`\\${quoteChar}`);
    if (quoteChar === '`') out = out.replace(/\$\{/g, '\\${');
    if (!literal.multiline) {
      out = out.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    }
  }
  if (literal.template && literal.language === 'python') out = out.replace(/[{}]/g, (brace) => brace + brace);
  return out;
}
