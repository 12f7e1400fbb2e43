// Webview entry (browser bundle): mounts the infection-graph view from the host's messages (VS Code) or from the
// payload inlined in a standalone HTML report. Every message is validated before use.
import { errorMessage } from '../core/errors';
import { MARK_FIRST_FRAME, MARK_READY, PAYLOAD_ELEMENT_ID, PAYLOAD_ENCODING } from '../core/graphview/types';
import { GraphView } from './app';
import { createBridge } from './bridge';
import { el, replaceChildren } from './dom';
import { isGraphViewPayload, parseHostMessage } from './protocol';

declare global {
  interface Window {
    /** The mounted view, for the browser tests and the benchmark. */
    agentImmuneView?: GraphView;
  }
}

const bridge = createBridge();
const root = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
let view: GraphView | undefined;
let generation = -1;

function mount(payload: Parameters<typeof isGraphViewPayload>[0]): void {
  if (!isGraphViewPayload(payload)) return showError('The analysis data is malformed; nothing is drawn.');
  view?.dispose();
  try {
    view = new GraphView(root, payload, bridge);
    window.agentImmuneView = view;
    root.dataset.state = 'ready';
    // User Timing marks (DevTools' Performance panel; the benchmark reads them): drawn, then the frame that shows it.
    performance.mark(MARK_READY);
    requestAnimationFrame(() => performance.mark(MARK_FIRST_FRAME));
  } catch (error) {
    showError(`The graph could not be drawn: ${errorMessage(error)}`);
  }
}

function showError(message: string): void {
  root.dataset.state = 'error';
  replaceChildren(root, el('div', { class: 'fatal', role: 'alert' }, message));
}

/** Reads a standalone report's payload: base64 text, gunzipped by the browser, then JSON. */
async function readReportPayload(element: HTMLElement | null): Promise<unknown> {
  if (!element || element.dataset.encoding !== PAYLOAD_ENCODING) throw new Error('no payload');
  const binary = atob(element.textContent ?? '');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const json = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  return JSON.parse(json);
}

if (bridge.mode === 'report') {
  readReportPayload(document.getElementById(PAYLOAD_ELEMENT_ID)).then(
    (payload) => mount(payload),
    () => showError('The report\'s data is damaged or unreadable; nothing is drawn.'),
  );
} else {
  root.dataset.state = 'waiting';
  replaceChildren(root, el('div', { class: 'waiting', role: 'status' }, 'Analysing the trace…'));
  window.addEventListener('message', (event: MessageEvent) => {
    const message = parseHostMessage(event.data);
    if (!message) return;
    if (message.type === 'status') {
      if (view) view.setStatus(message.state, message.message);
      else if (message.state === 'error') showError(`Analysis failed: ${message.message ?? ''}`);
      return;
    }
    if (message.generation <= generation) return;
    generation = message.generation;
    mount(message.payload);
  });
  bridge.post({ type: 'ready' });
}
