// Host-side handling of the graph page's messages: validate (protocol.ts), decode, dispatch. No vscode import, so the
// rules are unit-tested in plain mocha; graphPanel.ts supplies the handlers.
import { parsePageMessage, type PageMessage } from '../../webview/protocol';

/** What the panel does for each page message. */
export interface PageMessageHandlers {
  ready(): void | Promise<void>;
  openLine(line: number): void | Promise<void>;
  savePng(png: Uint8Array): void | Promise<void>;
  saveHtml(): void | Promise<void>;
  reanalyse(): void | Promise<void>;
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Decodes a validated PNG data URL; undefined unless the bytes start with the PNG signature. */
export function decodePngDataUrl(dataUrl: string): Uint8Array | undefined {
  const comma = dataUrl.indexOf(',');
  const bytes = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  return bytes.length > PNG_MAGIC.length && PNG_MAGIC.every((b, i) => bytes[i] === b) ? new Uint8Array(bytes) : undefined;
}

/** Validates and dispatches one raw message; returns the accepted message, or undefined when it was rejected. */
export async function handlePageMessage(raw: unknown, handlers: PageMessageHandlers, maxLine = Number.MAX_SAFE_INTEGER): Promise<PageMessage | undefined> {
  const message = parsePageMessage(raw);
  if (!message) return undefined;
  switch (message.type) {
    case 'ready':
      await handlers.ready();
      return message;
    case 'openLine':
      if (message.line > maxLine) return undefined;
      await handlers.openLine(message.line);
      return message;
    case 'savePng': {
      const png = decodePngDataUrl(message.dataUrl);
      if (!png) return undefined;
      await handlers.savePng(png);
      return message;
    }
    case 'saveHtml':
      await handlers.saveHtml();
      return message;
    case 'reanalyse':
      await handlers.reanalyse();
      return message;
  }
}
