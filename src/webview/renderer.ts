// The graph canvas: a graphology graph drawn by sigma (WebGL). Positions are fixed (computed once by the host); the
// round, selection, search filter and list hover only change what the reducers return, so a round change is one refresh.
import Graph from 'graphology';
import Sigma from 'sigma';
import type { Settings } from 'sigma/settings';
import type { NodeDisplayData, PartialButFor } from 'sigma/types';
import { CachedEdgeLineProgram, FlatEdgeArrowProgram } from './edgePrograms';
import { NodeGlyphProgram } from './glyphProgram';
import { labelSpot, type LabelSpot } from './labelPlace';
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

/** Above this many agents, channels are drawn as cached plain lines, with arrows over them only where a channel is
 * highlighted (an active infection path, the selection, a list hover); below it every channel is an arrow. */
const ARROW_LIMIT = 500;

/** The closest and farthest a focus zooms, and the room it leaves around the agents a focused agent talks with (camera ratio per unit of distance). */
const FOCUS_MIN_RATIO = 0.15;
const FOCUS_MAX_RATIO = 3;
const FOCUS_MARGIN = 2.4;

/** The graph's key of the agent at `index`. */
function nodeKey(index: number): string {
  return String(index);
}

/** Edge program types: every channel of a small graph, or the highlight over a channel of a large one. */
const PATH_TYPE = 'path';
/** Edge program type of the channel lines of a large graph (drawn from a cache while they do not change). */
const CHANNEL_TYPE = 'channel';

/** A glyph's size and ring show the score in this many steps: finer is invisible, and an agent whose step does not
 * change between two rounds is not repainted (at 2,000 agents that halves a round change's page work). */
const SCORE_STEPS = 20;

/** The score as the glyph shows it. */
function glyphScore(score: number): number {
  return Math.round(score * SCORE_STEPS) / SCORE_STEPS;
}

/** Initial state applied before the first frame, so mounting renders once. */
export interface InitialState {
  round: number;
  selected?: number;
  filter?: Set<number>;
}

/** Draws the view model with sigma and applies round/selection/filter/emphasis through reducers. */
export class GraphRenderer {
  readonly sigma: Sigma;
  private readonly graph = new Graph({ type: 'directed', multi: true, allowSelfLoops: false });
  private round = 0;
  private selected: number | undefined;
  private filter: Set<number> | undefined;
  private emphasis: Emphasis | undefined;
  private readonly baseSize: number;
  /** Highlight edge -> the channel it highlights (large graphs only). */
  private readonly highlightOf = new Map<string, string>();
  /** Large graphs: the arrow over each path channel, with the round that path becomes active. */
  private readonly pathArrows: { edge: string; from: number }[] = [];
  private readonly large: boolean;
  /** Communication channels drawn (one per directed agent pair). */
  readonly channelCount: number;
  /** Sigma's hover layers (hover label, highlighted node), shown only while a node is hovered or selected. */
  private readonly highlightLayers: HTMLCanvasElement[];
  private hovered = false;

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
    // Nodes are keyed by the agent's index (nodeKey): graphology keeps neighbours in plain objects, where an agent named
    // `__proto__` or `hasOwnProperty` breaks it.
    ids.forEach((id, i) => this.graph.addNode(nodeKey(i), { x: payload.positions[2 * i], y: payload.positions[2 * i + 1], label: plainLabel(id, 40) }));
    this.large = n > ARROW_LIMIT;
    for (const [from, to] of payload.analysis.edges) {
      const key = edgeKey(from, to);
      const source = model.index.get(from);
      const target = model.index.get(to);
      if (source === undefined || target === undefined || source === target || this.graph.hasEdge(key)) continue;
      // An edge's program never changes between rounds, so a round change repaints in place.
      this.graph.addDirectedEdgeWithKey(key, nodeKey(source), nodeKey(target), { type: this.large ? CHANNEL_TYPE : PATH_TYPE });
      if (!this.large || !model.pathEdges.has(key)) continue;
      const highlight = `\u0001${this.highlightOf.size}`;
      this.graph.addDirectedEdgeWithKey(highlight, nodeKey(source), nodeKey(target), { type: PATH_TYPE });
      this.highlightOf.set(highlight, key);
      this.pathArrows.push({ edge: highlight, from: model.pathEdgeRound.get(key) ?? Infinity });
    }
    this.channelCount = this.graph.size - this.highlightOf.size;
    const settings: Partial<Settings> = {
      defaultNodeType: 'glyph',
      nodeProgramClasses: { glyph: NodeGlyphProgram },
      defaultEdgeType: PATH_TYPE,
      // Sigma draws programs in this order (after its unused defaults): lines under arrows.
      edgeProgramClasses: { [CHANNEL_TYPE]: CachedEdgeLineProgram, [PATH_TYPE]: FlatEdgeArrowProgram },
      renderEdgeLabels: false,
      zIndex: true,
      labelRenderedSizeThreshold: n <= 60 ? 0 : 9,
      labelDensity: n <= 60 ? 1 : 0.07,
      labelGridCellSize: 80,
      labelFont: theme.font,
      labelSize: 12,
      labelWeight: '500',
      stagePadding: 64,
      minCameraRatio: 0.01,
      maxCameraRatio: 8,
      enableEdgeEvents: false,
      // Nothing in the view rotates the graph; a touch gesture would, and label placement reads directions unrotated.
      enableCameraRotation: false,
      defaultDrawNodeLabel: (context, data, settings) => this.drawLabel(context, data, settings),
      defaultDrawNodeHover: (context, data, settings) => this.drawHover(context, data, settings),
      nodeReducer: (node, data) => this.reduceNode(node, data),
      edgeReducer: (edge, data) => this.reduceEdge(edge, data),
    };
    this.sigma = new Sigma(this.graph, container, settings);
    this.sigma.on('clickNode', ({ node }) => {
      events.onClickNode(Number(node));
    });
    this.sigma.on('clickStage', () => events.onClickStage());
    this.sigma.on('enterNode', () => {
      container.style.cursor = 'pointer';
      this.hovered = true;
      this.showHighlightLayers();
    });
    this.sigma.on('leaveNode', () => {
      container.style.cursor = '';
      this.hovered = false;
      this.showHighlightLayers();
    });
    // Every layer on screen costs a read-back and a composite per frame in software rendering, even when empty: the
    // edge-label layer is never drawn here, and the hover layers only matter while something is hovered or selected.
    const layers = this.sigma.getCanvases();
    layers.edgeLabels.style.display = 'none';
    this.highlightLayers = [layers.hovers, layers.hoverNodes];
    this.showHighlightLayers();
  }

  /** Shows round k: repaints in place only the agents whose category or glyph score changed, and the arrows drawn in
   * either round. With `filter`, the search filter changes with it (a category filter follows the round): one repaint. */
  setRound(k: number, filter?: Set<number>): void {
    const previous = this.round;
    this.round = k;
    if (filter) this.filter = filter;
    else if (previous === k) return;
    if (this.filter || this.emphasis) {
      this.sigma.refresh();
      return;
    }
    const { category, score, ids } = this.model;
    const nodes = ids.flatMap((_, i) => (category[previous][i] !== category[k][i] || glyphScore(score[previous][i]) !== glyphScore(score[k][i]) ? [nodeKey(i)] : []));
    // Arrows stop at their agents' glyphs, which a round may resize: repaint every arrow drawn in either round (all
    // edges of a small graph; the lit path arrows of a large one, whose lines do not depend on the round). A resized
    // agent changes which labels the label grid shows: its cells are re-sorted before the frame is drawn, or, should
    // sigma's grid not be there to re-sort, the graph is re-indexed.
    const edges = this.large ? this.pathArrows.filter(({ from }) => from <= previous || from <= k).map(({ edge }) => edge) : this.graph.edges();
    const grid = labelGridCells(this.sigma);
    if (!grid || nodes.length === 0) {
      this.sigma.refresh({ partialGraph: { nodes, edges }, skipIndexation: nodes.length === 0 });
      return;
    }
    // Updated in place with the frame held back, the grid re-sorted, then drawn (an empty in-place refresh renders at
    // once and cancels the scheduled frame).
    this.sigma.refresh({ partialGraph: { nodes, edges }, skipIndexation: true, schedule: true });
    this.resortLabels(grid, new Set(nodes));
    this.sigma.refresh({ partialGraph: { nodes: [], edges: [] }, skipIndexation: true });
  }

  /** Gives the resized agents' label candidates their new sizes and re-sorts their cells, as sigma's indexing would. */
  private resortLabels(cells: LabelCell[], resized: Set<string>): void {
    for (const cell of cells) {
      let touched = false;
      for (const candidate of cell) {
        if (!resized.has(candidate.key)) continue;
        const i = Number(candidate.key);
        candidate.size = this.glyphSize(i, this.round, this.emphasis?.nodes.has(this.model.ids[i]) || this.selected === i);
        touched = true;
      }
      // sigma's LabelCandidate.compare: larger first, then by key.
      if (touched) cell.sort((a, b) => b.size - a.size || (a.key > b.key ? 1 : -1));
    }
  }

  /** Selects an agent (ringed in the focus colour) or clears the selection. */
  setSelected(index: number | undefined): void {
    this.selected = index;
    this.showHighlightLayers();
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

  /**
   * Camera: centre on an agent, zoomed in no further than keeps the agents it talks with in view (a fixed zoom left a
   * small run's other agents, the source among them, off screen).
   */
  focus(index: number): void {
    const key = nodeKey(index);
    const data = this.sigma.getNodeDisplayData(key);
    if (!data) return;
    let reach = 0;
    for (const neighbour of this.graph.neighbors(key)) {
      const other = this.sigma.getNodeDisplayData(neighbour);
      if (other) reach = Math.max(reach, Math.abs(other.x - data.x), Math.abs(other.y - data.y));
    }
    const camera = this.sigma.getCamera();
    const fits = Math.min(FOCUS_MAX_RATIO, Math.max(FOCUS_MIN_RATIO, reach * FOCUS_MARGIN));
    void camera.animate({ x: data.x, y: data.y, ratio: Math.min(Math.max(camera.getState().ratio, fits), Math.max(0.6, fits)) }, { duration: 300 });
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

  private showHighlightLayers(): void {
    const display = this.hovered || this.selected !== undefined ? '' : 'none';
    for (const layer of this.highlightLayers) layer.style.display = display;
  }

  /** Agent i's glyph size in round k: by its category and score, and at least 1.4 bases when selected or emphasised. */
  private glyphSize(i: number, k: number, focused: boolean): number {
    const category = this.model.category[k]?.[i] ?? 'benign';
    const size = this.baseSize * (category === 'attacker' ? 1.5 : category !== 'benign' ? 1.2 : 1) * (0.8 + 0.5 * glyphScore(this.model.score[k]?.[i] ?? 0));
    return focused ? Math.max(size, this.baseSize * 1.4) : size;
  }

  private reduceNode(node: string, data: Record<string, unknown>): Partial<NodeDisplayData> & Record<string, unknown> {
    const i = Number(node);
    const id = this.model.ids[i];
    const k = this.round;
    const category = this.model.category[k]?.[i] ?? 'benign';
    const score = glyphScore(this.model.score[k]?.[i] ?? 0);
    const flagged = category !== 'benign';
    const dim = (this.filter && !this.filter.has(i)) || (this.emphasis && !this.emphasis.nodes.has(id));
    const focused = this.emphasis?.nodes.has(id) || this.selected === i;
    const out: Record<string, unknown> = {
      ...data,
      size: this.glyphSize(i, k, focused),
      color: dim ? this.theme.dimmed : this.theme.fill[category],
      ringColor: dim ? this.theme.dimmed : this.theme.ring[category],
      ring: 0.1 + 0.22 * score,
      shape: CATEGORY_SHAPE[category],
      // Drawing order is fixed at indexing and a round change repaints in place, so it must not depend on the round:
      // agents flagged in any round are drawn over the others.
      zIndex: Number.isFinite(this.model.firstFlagged[i]) ? 2 : 1,
      label: dim ? null : data.label,
      forceLabel: !dim && (flagged && this.model.ids.length <= 400),
    };
    if (focused) {
      out.ringColor = this.theme.focus;
      out.ring = 0.34;
      out.zIndex = 3;
      out.forceLabel = true;
    }
    if (this.selected === i) out.highlighted = true;
    return out;
  }

  private reduceEdge(edge: string, data: Record<string, unknown>): Record<string, unknown> {
    const highlighted = this.highlightOf.get(edge);
    // A large graph's channel lines ignore the round (they are cached); the highlight over one shows only when lit.
    const look = this.edgeLook(highlighted ?? edge, data.type === PATH_TYPE);
    if (highlighted !== undefined && !look.lit) return { ...data, hidden: true, zIndex: look.zIndex };
    return { ...data, color: look.color, size: look.size, zIndex: look.zIndex };
  }

  /** How a channel is drawn: lit when on an active infection path (if the round counts), hovered or selected. */
  private edgeLook(channel: string, byRound: boolean): { color: string; size: number; zIndex: number; lit: boolean } {
    const [from, to] = this.graph.extremities(channel).map(Number);
    const n = this.model.ids.length;
    const base = n <= 60 ? 1.6 : n <= 500 ? 0.8 : 0.5;
    if (this.emphasis) {
      const hit = this.emphasis.edges.has(channel);
      return { color: hit ? this.theme.focus : this.theme.edgeDim, size: hit ? base * 3.2 : base, zIndex: hit ? 2 : 0, lit: hit };
    }
    const onPath = byRound && pathEdgeActive(this.model, channel, this.round);
    const touches = this.selected !== undefined && (from === this.selected || to === this.selected);
    const dim = this.filter && !(this.filter.has(from) || this.filter.has(to));
    // As for nodes, the drawing order must not depend on the round: channels on a path in any round go on top.
    const zIndex = this.model.pathEdges.has(channel) ? 2 : touches ? 1 : 0;
    if (onPath) return { color: dim ? this.theme.edgeDim : this.theme.edgePath, size: base * 3, zIndex, lit: true };
    if (touches) return { color: this.theme.focus, size: base * 1.8, zIndex, lit: true };
    return { color: dim || this.selected !== undefined ? this.theme.edgeDim : this.theme.edge, size: base, zIndex, lit: false };
  }


  /** Where an agent's label box goes: beside it, off its channels, inside the canvas (labelPlace.ts). */
  private labelSpotOf(context: CanvasRenderingContext2D, data: LabelData, width: number, height: number, gap: number): LabelSpot {
    const canvas = { width: context.canvas.clientWidth, height: context.canvas.clientHeight };
    return labelSpot(canvas, data, { width, height }, gap, data.key === undefined ? [] : this.channelDirections(data.key));
  }

  /** The screen directions from an agent to the agents it has a channel with (graph y points up, the screen's down; the
   * camera does not rotate); none past LABEL_AVOIDS_UP_TO. */
  private channelDirections(key: string): [number, number][] {
    if (this.graph.degree(key) > LABEL_AVOIDS_UP_TO) return [];
    const x = this.graph.getNodeAttribute(key, 'x') as number;
    const y = this.graph.getNodeAttribute(key, 'y') as number;
    return this.graph.neighbors(key).map((other) => [(this.graph.getNodeAttribute(other, 'x') as number) - x, y - (this.graph.getNodeAttribute(other, 'y') as number)]);
  }

  private drawLabel(context: CanvasRenderingContext2D, data: LabelData, settings: Settings): void {
    if (!data.label) return;
    context.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
    context.fillStyle = this.theme.label;
    const height = settings.labelSize + 2;
    const { x, y } = this.labelSpotOf(context, data, context.measureText(data.label).width, height, 3);
    context.fillText(data.label, x, y + height / 2 + settings.labelSize / 3);
  }

  private drawHover(context: CanvasRenderingContext2D, data: LabelData, settings: Settings): void {
    const label = data.label ?? '';
    context.font = `${settings.labelWeight} ${settings.labelSize}px ${settings.labelFont}`;
    const width = context.measureText(label).width + 10;
    const height = settings.labelSize + 8;
    const { x, y } = this.labelSpotOf(context, data, width, height, 4);
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

/** What sigma hands a label or hover drawer: the agent's node key and its drawn place. */
type LabelData = PartialButFor<NodeDisplayData, 'x' | 'y' | 'size' | 'label' | 'color'> & { key?: string };

/** Past this many channels an agent's label is not kept off them (it goes right, or left at the canvas's edge). */
const LABEL_AVOIDS_UP_TO = 24;

/** One cell of sigma's label grid: the candidates for a label there, largest first. */
type LabelCell = { key: string; size: number }[];

/** The cells of sigma's label grid (internal to sigma 3.0, which package.json pins), or undefined if it is not there. */
function labelGridCells(sigma: Sigma): LabelCell[] | undefined {
  const cells = (sigma as unknown as { labelGrid?: { cells?: Record<string, LabelCell> } }).labelGrid?.cells;
  return cells && typeof cells === 'object' ? Object.values(cells) : undefined;
}
