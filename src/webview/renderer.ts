// The graph canvas: a graphology graph drawn by sigma (WebGL). Positions are fixed (computed once by the host); the
// round, selection, search filter and list hover only change what the reducers return, so a round change is one refresh.
import Graph from 'graphology';
import Sigma from 'sigma';
import type { Settings } from 'sigma/settings';
import type { NodeDisplayData, PartialButFor } from 'sigma/types';
import { EdgeArrowProgram, EdgeLineProgram } from 'sigma/rendering';
import { NodeGlyphProgram } from './glyphProgram';
import { CATEGORY_SHAPE, type Theme } from './theme';
import { plainLabel } from './text';
import { edgeKey, pathEdgeActive, type ViewModel } from './viewModel';

/** What the renderer reports back to the app. */
export interface RendererEvents {
  onClickNode(index: number): void;
  onClickStage(): void;
}

/** Nodes and edges to emphasise (list hover); everything else is dimmed. */
export interface Emphasis {
  nodes: Set<string>;
  edges: Set<string>;
}

/** Above this many agents, edges off the infection paths are drawn as plain lines (far cheaper than arrows). */
export const ARROW_LIMIT = 500;

/** Initial state applied before the first frame, so mounting renders once. */
export interface InitialState {
  round: number;
  selected?: number;
  filter?: Set<number>;
}

/** Draws the view model with sigma and applies round/selection/filter/emphasis through reducers. */
export class GraphRenderer {
  readonly sigma: Sigma;
  private readonly graph = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
  private round = 0;
  private selected: number | undefined;
  private filter: Set<number> | undefined;
  private emphasis: Emphasis | undefined;
  private readonly baseSize: number;

  constructor(
    private readonly container: HTMLElement,
    private readonly model: ViewModel,
    private theme: Theme,
    events: RendererEvents,
    initial: InitialState,
  ) {
    this.round = initial.round;
    this.selected = initial.selected;
    this.filter = initial.filter;
    const { ids, payload } = model;
    const n = ids.length;
    this.baseSize = n <= 30 ? 13 : n <= 200 ? 8 : n <= 800 ? 5 : 3.2;
    ids.forEach((id, i) => this.graph.addNode(id, { x: payload.positions[2 * i], y: payload.positions[2 * i + 1], label: plainLabel(id, 40) }));
    for (const [from, to] of payload.analysis.edges) {
      if (from === to || !this.graph.hasNode(from) || !this.graph.hasNode(to)) continue;
      const key = edgeKey(from, to);
      // The edge's program never changes between rounds (so a round change can repaint in place): arrows on infection
      // paths always, and on every edge of graphs small enough to afford it.
      if (!this.graph.hasEdge(key)) this.graph.addDirectedEdgeWithKey(key, from, to, { type: n <= ARROW_LIMIT || model.pathEdges.has(key) ? 'arrow' : 'line' });
    }
    const settings: Partial<Settings> = {
      defaultNodeType: 'glyph',
      nodeProgramClasses: { glyph: NodeGlyphProgram },
      defaultEdgeType: 'arrow',
      edgeProgramClasses: { arrow: EdgeArrowProgram, line: EdgeLineProgram },
      renderEdgeLabels: false,
      zIndex: true,
      labelRenderedSizeThreshold: n <= 60 ? 0 : 9,
      labelDensity: n <= 60 ? 1 : 0.07,
      labelGridCellSize: 80,
      labelFont: theme.font,
      labelSize: 12,
      labelWeight: '500',
      labelColor: { color: theme.label },
      stagePadding: 64,
      minCameraRatio: 0.01,
      maxCameraRatio: 8,
      enableEdgeEvents: false,
      defaultDrawNodeHover: (context, data, settings) => this.drawHover(context, data, settings),
      nodeReducer: (node, data) => this.reduceNode(node, data),
      edgeReducer: (edge, data) => this.reduceEdge(edge, data),
    };
    this.sigma = new Sigma(this.graph, container, settings);
    this.sigma.on('clickNode', ({ node }) => {
      const i = model.index.get(node);
      if (i !== undefined) events.onClickNode(i);
    });
    this.sigma.on('clickStage', () => events.onClickStage());
    this.sigma.on('enterNode', () => (container.style.cursor = 'pointer'));
    this.sigma.on('leaveNode', () => (container.style.cursor = ''));
  }

  /** Shows round k: repaints in place only the agents whose category or score changed, and the path edges. */
  setRound(k: number): void {
    const previous = this.round;
    this.round = k;
    if (previous === k) return;
    if (this.filter || this.emphasis) {
      this.sigma.refresh();
      return;
    }
    const { category, score, ids, pathEdges } = this.model;
    const nodes = ids.filter((_, i) => category[previous][i] !== category[k][i] || score[previous][i] !== score[k][i]);
    const edges = [...pathEdges].filter((key) => this.graph.hasEdge(key));
    this.sigma.refresh({ partialGraph: { nodes, edges }, skipIndexation: true });
  }

  /** Selects an agent (ringed in the focus colour) or clears the selection. */
  setSelected(index: number | undefined): void {
    this.selected = index;
    this.sigma.refresh();
  }

  /** Restricts the view to the agents matching a search (others dimmed); undefined shows all. */
  setFilter(matches: Set<number> | undefined): void {
    this.filter = matches;
    this.sigma.refresh();
  }

  /** Emphasises a source, path or remediation step from the lists; undefined clears. */
  setEmphasis(emphasis: Emphasis | undefined): void {
    this.emphasis = emphasis;
    this.sigma.refresh();
  }

  /** Applies a new theme (colours only). */
  setTheme(theme: Theme): void {
    this.theme = theme;
    this.sigma.setSetting('labelColor', { color: theme.label });
    this.sigma.refresh();
  }

  /** Camera: fit the whole graph. */
  fit(): void {
    void this.sigma.getCamera().animatedReset({ duration: 250 });
  }

  /** Camera: zoom in or out by a step. */
  zoom(direction: 1 | -1): void {
    const camera = this.sigma.getCamera();
    void (direction > 0 ? camera.animatedZoom({ duration: 150 }) : camera.animatedUnzoom({ duration: 150 }));
  }

  /** Camera: pan by a fraction of the viewport. */
  pan(dx: number, dy: number): void {
    const camera = this.sigma.getCamera();
    const state = camera.getState();
    camera.setState({ x: state.x + dx * 0.1 * state.ratio, y: state.y + dy * 0.1 * state.ratio });
  }

  /** Camera: centre on an agent. */
  focus(index: number): void {
    const data = this.sigma.getNodeDisplayData(this.model.ids[index]);
    if (!data) return;
    const camera = this.sigma.getCamera();
    void camera.animate({ x: data.x, y: data.y, ratio: Math.min(camera.getState().ratio, 0.6) }, { duration: 300 });
  }

  /** The drawn picture as a PNG data URL (all layers composited on the editor background). */
  toPng(): string {
    this.sigma.refresh();
    const layers = Array.from(this.container.querySelectorAll('canvas'));
    const width = layers[0]?.width ?? 1;
    const height = layers[0]?.height ?? 1;
    const out = document.createElement('canvas');
    out.width = width;
    out.height = height;
    const context = out.getContext('2d');
    if (!context) throw new Error('no 2D canvas context');
    context.fillStyle = this.theme.background;
    context.fillRect(0, 0, width, height);
    for (const layer of layers) context.drawImage(layer, 0, 0, width, height);
    return out.toDataURL('image/png');
  }

  /** Releases the WebGL contexts. */
  kill(): void {
    this.sigma.kill();
  }

  private reduceNode(node: string, data: Record<string, unknown>): Partial<NodeDisplayData> & Record<string, unknown> {
    const i = this.model.index.get(node) ?? 0;
    const k = this.round;
    const category = this.model.category[k]?.[i] ?? 'benign';
    const score = this.model.score[k]?.[i] ?? 0;
    const flagged = category !== 'benign';
    const dim = (this.filter && !this.filter.has(i)) || (this.emphasis && !this.emphasis.nodes.has(node));
    const out: Record<string, unknown> = {
      ...data,
      size: this.baseSize * (category === 'attacker' ? 1.5 : flagged ? 1.2 : 1) * (0.8 + 0.5 * score),
      color: dim ? this.theme.dimmed : this.theme.fill[category],
      ringColor: dim ? this.theme.dimmed : this.theme.ring[category],
      ring: 0.1 + 0.22 * score,
      shape: CATEGORY_SHAPE[category],
      zIndex: flagged ? 2 : 1,
      label: dim ? null : data.label,
      forceLabel: !dim && (flagged && this.model.ids.length <= 400),
    };
    if (this.emphasis?.nodes.has(node) || this.selected === i) {
      out.ringColor = this.theme.focus;
      out.ring = 0.34;
      out.zIndex = 3;
      out.forceLabel = true;
      out.size = Math.max(out.size as number, this.baseSize * 1.4);
    }
    if (this.selected === i) out.highlighted = true;
    return out;
  }

  private reduceEdge(edge: string, data: Record<string, unknown>): Record<string, unknown> {
    const onPath = pathEdgeActive(this.model, edge, this.round);
    const [from, to] = this.graph.extremities(edge);
    const n = this.model.ids.length;
    const base = n <= 60 ? 1.6 : n <= 500 ? 0.8 : 0.5;
    if (this.emphasis) {
      const hit = this.emphasis.edges.has(edge);
      return { ...data, color: hit ? this.theme.focus : this.theme.edgeDim, size: hit ? base * 3.2 : base, zIndex: hit ? 2 : 0 };
    }
    const selectedId = this.selected === undefined ? undefined : this.model.ids[this.selected];
    const touches = selectedId !== undefined && (from === selectedId || to === selectedId);
    const dim = this.filter && !(this.filter.has(this.model.index.get(from) ?? -1) || this.filter.has(this.model.index.get(to) ?? -1));
    if (onPath) return { ...data, color: dim ? this.theme.edgeDim : this.theme.edgePath, size: base * 3, zIndex: 2 };
    if (touches) return { ...data, color: this.theme.focus, size: base * 1.8, zIndex: 1 };
    return { ...data, color: dim || selectedId !== undefined ? this.theme.edgeDim : this.theme.edge, size: base, zIndex: 0 };
  }

  private drawHover(context: CanvasRenderingContext2D, data: PartialButFor<NodeDisplayData, 'x' | 'y' | 'size' | 'label' | 'color'>, settings: Settings): void {
    const label = data.label ?? '';
    context.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
    const width = context.measureText(label).width + 10;
    const height = settings.labelSize + 8;
    const x = data.x + data.size + 4;
    const y = data.y - height / 2;
    context.fillStyle = this.theme.background;
    context.strokeStyle = this.theme.focus;
    context.lineWidth = 1;
    context.beginPath();
    context.rect(x, y, width, height);
    context.fill();
    context.stroke();
    context.fillStyle = this.theme.label;
    context.fillText(label, x + 5, y + settings.labelSize + 2);
  }
}
