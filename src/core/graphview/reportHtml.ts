// The self-contained HTML report: the webview bundle, its stylesheet and the view payload inlined in one static file,
// under a CSP that allows only the inlined script and style (no network, no eval). The payload travels gzipped and
// base64-encoded (13x smaller for a 2,000-agent run, so the page parses 0.5 MB instead of 6 MB before its first frame).
import { PAYLOAD_ELEMENT_ID, PAYLOAD_ENCODING } from './types';

/** What goes into a report. */
export interface ReportParts {
  script: string;
  css: string;
  /** The trace's display name (the page title). */
  title: string;
  /** The view payload's JSON, gzipped, in base64. */
  payloadGzipBase64: string;
  /** Nonce for the inline script and style (any unguessable token). */
  nonce: string;
}

/** Escapes text for an HTML text or attribute context. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Renders the static report page. */
export function renderReportHtml(parts: ReportParts): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(parts.nonce)) throw new Error('renderReportHtml: nonce must be 16+ base64/hex characters');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(parts.payloadGzipBase64)) throw new Error('renderReportHtml: the payload must be base64');
  const nonce = parts.nonce;
  // A literal "</script" or "</style" inside the inlined code would end the element early. A control character (the
  // minifier writes `\u0001` in a template literal raw) is an HTML parse error: it is written as the same JS escape.
  const script = parts.script
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const css = parts.css.replace(/<\/(style)/gi, '<\\/$1');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data: blob:; font-src data:`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="agent-immune">
<title>Agent Immune — ${escapeHtml(parts.title)}</title>
<style nonce="${nonce}">${css}</style>
</head>
<body class="standalone">
<div id="app" data-mode="report"></div>
<script type="application/octet-stream" id="${PAYLOAD_ELEMENT_ID}" data-encoding="${PAYLOAD_ENCODING}">${parts.payloadGzipBase64}</script>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`;
}
