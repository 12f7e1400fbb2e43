// How the page talks to whoever hosts it: the VS Code webview API when present, otherwise the standalone HTML report
// (state kept in memory, PNG saved as a download, payload read from the inlined JSON).
import type { PageMessage } from './protocol';

/** The page's persisted UI state (getState/setState). */
export interface ViewState {
  round?: number;
  /** The slider stays on the latest round as a live run's rounds arrive (false once the user moved it elsewhere). */
  follow?: boolean;
  selected?: string;
  query?: string;
  category?: 'all' | 'attacker' | 'infected' | 'benign';
  camera?: { x: number; y: number; ratio: number; angle: number };
}

/** The host as the page sees it. */
export interface Bridge {
  readonly mode: 'vscode' | 'report';
  post(message: PageMessage): void;
  getState(): ViewState;
  setState(state: ViewState): void;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Picks the bridge for this page. */
export function createBridge(): Bridge {
  if (typeof acquireVsCodeApi === 'function') {
    const api = acquireVsCodeApi();
    return {
      mode: 'vscode',
      post: (message) => api.postMessage(message),
      getState: () => {
        const state = api.getState();
        return typeof state === 'object' && state !== null ? (state as ViewState) : {};
      },
      setState: (state) => api.setState(state),
    };
  }
  let state: ViewState = {};
  return {
    mode: 'report',
    post: (message) => {
      if (message.type === 'savePng') download(message.dataUrl, 'agent-immune-graph.png');
    },
    getState: () => state,
    setState: (next) => {
      state = next;
    },
  };
}

function download(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
