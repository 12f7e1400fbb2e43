// Webview entry (browser bundle): mounts the infection-graph view from the host's messages (VS Code) or from the
// payload inlined in a standalone HTML report. Every message is validated before use.
import { PAYLOAD_ELEMENT_ID } from '../core/graphview/types';
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

function mount(payload: Parameters<typeof isGraphViewPayload>[0], started: number): void {
  if (!isGraphViewPayload(payload)) return showError('The analysis data is malformed; nothing is drawn.');
  view?.dispose();
  try {
    view = new GraphView(root, payload, bridge, started);
    window.agentImmuneView = view;
    root.dataset.state = 'ready';
  } catch (error) {
    showError(`The graph could not be drawn: ${(error as Error).message}`);
  }
}

function showError(message: string): void {
  root.dataset.state = 'error';
  replaceChildren(root, el('div', { class: 'fatal', role: 'alert' }, message));
}

if (bridge.mode === 'report') {
  const data = document.getElementById(PAYLOAD_ELEMENT_ID);
  const started = performance.now();
  let payload: unknown;
  try {
    payload = JSON.parse(data?.textContent ?? 'null');
  } catch {
    payload = undefined;
  }
  mount(payload, started);
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
    mount(message.payload, performance.now());
  });
  bridge.post({ type: 'ready' });
}
