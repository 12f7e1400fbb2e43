// Writes the standalone HTML report of the infection-graph view: the built webview bundle and stylesheet (read from the
// package) inlined with the view payload. Shared by `agent-immune analyze --html` and the editor's "Save as HTML report".
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Analysis } from '../core/guard/types';
import { buildGraphViewPayload, runTitle } from '../core/graphview/payload';
import { renderReportHtml } from '../core/graphview/reportHtml';
import type { GraphViewPayload } from '../core/graphview/types';
import type { Trace } from '../core/trace/types';
import { NO_FOLLOW_WRITE } from './workspaceFs';

/** The package root when running from dist/ (the bundles live in dist/, the stylesheet in media/). */
export const PACKAGE_ROOT = path.resolve(__dirname, '..');

/** Where the view's assets are, relative to the package root. */
export const WEBVIEW_SCRIPT = path.join('dist', 'webview.js');
export const WEBVIEW_STYLE = path.join('media', 'graphview.css');

/** The payload as a report carries it: its JSON, gzipped, in base64. */
export function encodeReportPayload(payload: GraphViewPayload): string {
  return gzipSync(JSON.stringify(payload), { level: 6 }).toString('base64');
}

/** Renders the report HTML for a payload, reading the assets under `root`. */
export async function reportHtmlFor(payload: GraphViewPayload, root = PACKAGE_ROOT): Promise<string> {
  const [script, css] = await Promise.all([readFile(path.join(root, WEBVIEW_SCRIPT), 'utf8'), readFile(path.join(root, WEBVIEW_STYLE), 'utf8')]);
  // The linked source map comment would point at a file the report does not carry.
  return renderReportHtml({ script: script.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), css, title: payload.title, payloadGzipBase64: encodeReportPayload(payload), nonce: randomBytes(18).toString('base64url') });
}

/** Builds the payload from a trace and its analysis and writes the report to `file`, creating its folder. */
export async function writeGraphReport(file: string, trace: Trace, analysis: Analysis, root = PACKAGE_ROOT): Promise<void> {
  const payload = buildGraphViewPayload(trace, analysis, { title: runTitle(analysis.source ?? path.basename(file), analysis.run) });
  const html = await reportHtmlFor(payload, root);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, html, { encoding: 'utf8', flag: NO_FOLLOW_WRITE });
}
