// The self-contained HTML report: the webview bundle, its stylesheet and the view payload inlined in one static file,
// under a CSP that allows only the inlined script and style (no network, no eval).
import { PAYLOAD_ELEMENT_ID, type GraphViewPayload } from './types';

/** What goes into a report. */
export interface ReportParts {
  script: string;
  css: string;
  payload: GraphViewPayload;
  /** Nonce for the inline script and style (any unguessable token). */
  nonce: string;
}

/** Serialises JSON so it cannot close its <script> element or break a JS parser: <, >, &, U+2028/2029 escaped. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Escapes text for an HTML text or attribute context. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the static report page. */
export function renderReportHtml(parts: ReportParts): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(parts.nonce)) throw new Error('renderReportHtml: nonce must be 16+ base64/hex characters');
  const nonce = parts.nonce;
  // A literal "</script" or "</style" inside the inlined code would end the element early.
  const script = parts.script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const css = parts.css.replace(/<\/(style)/gi, '<\\/$1');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data: blob:; font-src data:`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="agent-immune">
<title>Agent Immune — ${escapeHtml(parts.payload.title)}</title>
<style nonce="${nonce}">${css}</style>
</head>
<body class="standalone">
<div id="app" data-mode="report"></div>
<script type="application/json" id="${PAYLOAD_ELEMENT_ID}">${jsonForScript(parts.payload)}</script>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`;
}
