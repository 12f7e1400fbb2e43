// The webview's HTML shell: a strict CSP (nonce for the one script, the webview's own origin for the stylesheet, no
// network), the bundle and stylesheet by asWebviewUri. The page builds all its DOM itself. No vscode import.
import { escapeHtml } from '../../core/graphview/reportHtml';

/** What the shell needs from the host. */
export interface PanelHtmlParts {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

/** The Content-Security-Policy of the panel. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data: blob:`,
    `font-src ${cspSource}`,
  ].join('; ');
}

/** Renders the panel HTML. */
export function panelHtml(parts: PanelHtmlParts): string {
  const attr = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(parts.cspSource, parts.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(parts.styleUri)}">
<title>${escapeHtml(parts.title)}</title>
</head>
<body>
<div id="app" data-mode="vscode"></div>
<script nonce="${attr(parts.nonce)}" src="${attr(parts.scriptUri)}"></script>
</body>
</html>
`;
}
