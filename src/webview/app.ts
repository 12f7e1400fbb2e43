// The infection-graph view: toolbar (search, category filter, camera, export), graph canvas with legend, side panel
// and lists, round scrubber. One instance per payload; UI state survives re-analysis and hide/show via the bridge.
import type { GraphViewPayload } from '../core/graphview/types';
import { middleCut } from '../core/text/printable';
import type { Category } from '../core/trace/types';
import type { Bridge, ViewState } from './bridge';
import { el, replaceChildren } from './dom';
import { alertsList, matchesList, pathsList, remediationList, sourcesList, type ListActions } from './lists';
import { renderAgent, renderSummary, type PanelActions } from './panel';
import { GraphRenderer, type Emphasis } from './renderer';
import { Scrubber } from './scrubber';
import { readTheme } from './theme';
import { plainLabel } from './text';
import { CATEGORY_GLYPH, CATEGORY_LABEL } from './wording';
import { buildViewModel, matchAgents, type ViewModel } from './viewModel';

/** How long the round must stay still before the side panel and lists follow it: scrubbing or playing repaints only
 * the graph and the scrubber per step, and the text beside them catches up once the user pauses. */
export const SIDE_SETTLE_MS = 120;

/** The mounted view. */
export class GraphView {
  readonly model: ViewModel;
  readonly renderer: GraphRenderer;
  private round: number;
  /** A live run's new rounds move the view to them (the user has not moved the slider off the latest round). */
  private follow: boolean;
  private readonly liveBadge: HTMLButtonElement | undefined;
  private selected: number | undefined;
  private query: string;
  private category: Category | 'all';
  private matches: number[] | undefined;
  private readonly scrubber: Scrubber;
  private readonly details: HTMLElement;
  private readonly lists: HTMLElement;
  private readonly searchInput: HTMLInputElement;
  private readonly categorySelect: HTMLSelectElement;
  private readonly matchCount: HTMLElement;
  private readonly graphBox: HTMLElement;
  private readonly status: HTMLElement;
  private cameraTimer: ReturnType<typeof setTimeout> | undefined;
  private sideTimer: ReturnType<typeof setTimeout> | undefined;
  private firstSideFrame: number;
  private readonly disposers: (() => void)[] = [];

  constructor(private readonly root: HTMLElement, payload: GraphViewPayload, private readonly bridge: Bridge) {
    this.model = buildViewModel(payload);
    const state = bridge.getState();
    this.follow = state.follow !== false;
    this.round = clampRound(payload.live && this.follow ? this.model.rounds - 1 : (state.round ?? this.model.rounds - 1), this.model.rounds);
    this.selected = state.selected !== undefined ? this.model.index.get(state.selected) : undefined;
    this.query = typeof state.query === 'string' ? state.query : '';
    this.category = state.category ?? 'all';

    this.searchInput = el('input', { type: 'search', class: 'search', placeholder: 'Search agent id  ( / )', 'aria-label': 'Search agents by id', value: this.query });
    this.categorySelect = el('select', { class: 'category', 'aria-label': 'Filter by category in this round' },
      ...(['all', 'attacker', 'infected', 'benign'] as const).map((c) => el('option', { value: c }, c === 'all' ? 'All categories' : `${CATEGORY_GLYPH[c]} ${CATEGORY_LABEL[c]}`)));
    this.categorySelect.value = this.category;
    this.matchCount = el('span', { class: 'match-count', 'aria-live': 'polite' });
    this.status = el('div', { class: 'status', role: 'status' });
    this.liveBadge = payload.live && el('button', { type: 'button', class: 'live', 'data-live': payload.live.state });
    this.liveBadge?.addEventListener('click', () => this.setRound(this.model.rounds - 1));
    const toolbar = el('header', { class: 'toolbar' },
      el('div', { class: 'title' }, el('span', { class: 'brand' }, 'Agent Immune'), this.liveBadge ?? null, el('span', { class: 'trace-name', title: plainLabel(payload.title, 400) }, middleCut(plainLabel(payload.title, 400), 80))),
      el('div', { class: 'filters' }, this.searchInput, this.categorySelect, this.matchCount),
      el('div', { class: 'buttons' },
        this.button('−', 'Zoom out (-)', () => this.renderer.zoom(-1), 'zoom-out'),
        this.button('+', 'Zoom in (+)', () => this.renderer.zoom(1), 'zoom-in'),
        this.button('Fit', 'Fit the graph (0)', () => this.renderer.fit(), 'fit'),
        this.button('PNG', 'Save as PNG', () => this.savePng(), 'save-png'),
        bridge.mode === 'vscode' ? this.button('HTML', 'Save as HTML report', () => bridge.post({ type: 'saveHtml' }), 'save-html') : null,
      ),
      this.status,
    );
    this.graphBox = el('div', { class: 'graph', tabindex: 0, role: 'application', 'aria-label': 'Infection graph. Arrows pan, plus and minus zoom, 0 fits, N and Shift+N step through flagged agents, Escape clears the selection.' });
    const legend = el('div', { class: 'legend', 'aria-hidden': 'true' },
      ...(['attacker', 'infected', 'benign'] as const).map((c) => el('span', { class: `legend-item cat-${c}` }, `${CATEGORY_GLYPH[c]} ${CATEGORY_LABEL[c]}`)),
      el('span', { class: 'legend-item ring' }, '◎ ring & size = score'),
      el('span', { class: 'legend-item path' }, '➝ infection path'));
    this.details = el('section', { class: 'details', 'aria-live': 'polite' });
    this.lists = el('div', { class: 'lists' });
    const sidebar = el('aside', { class: 'sidebar', 'aria-label': 'Details' }, this.details, this.lists);
    this.scrubber = new Scrubber(this.model, this.round, (k) => this.setRound(k));
    replaceChildren(root, toolbar, el('main', { class: 'body' }, el('div', { class: 'graph-wrap' }, this.graphBox, legend), sidebar), this.scrubber.element);

    this.matches = this.currentMatches();
    this.renderer = new GraphRenderer(
      this.graphBox,
      this.model,
      readTheme(),
      { onClickNode: (i) => this.select(i), onClickStage: () => this.select(undefined) },
      { round: this.round, selected: this.selected, filter: this.matches && new Set(this.matches) },
    );
    if (state.camera) this.renderer.sigma.getCamera().setState(state.camera);
    this.renderer.sigma.getCamera().on('updated', () => this.saveCameraSoon());
    this.showMatchCount();
    // The graph paints first; the side panel and lists (thousands of elements for a big run) follow right after.
    this.firstSideFrame = requestAnimationFrame(() => this.refreshSideSoon(0));
    this.wireEvents();
    this.root.dataset.agents = String(this.model.ids.length);
    this.root.dataset.edges = String(this.renderer.channelCount);
    this.root.dataset.round = String(this.round);
    this.showLive();
  }

  /** Moves to round k: graph and scrubber now, side panel and lists once the round settles (see SIDE_SETTLE_MS). A
   * live run's view follows its new rounds again once k is the latest. */
  setRound(k: number): void {
    this.round = clampRound(k, this.model.rounds);
    this.follow = this.round === this.model.rounds - 1;
    this.showLive();
    // A category filter follows the round; the renderer takes both in one repaint.
    const filterFollows = this.category !== 'all';
    if (filterFollows) {
      this.matches = this.currentMatches();
      this.showMatchCount();
    }
    this.renderer.setRound(this.round, filterFollows ? new Set(this.matches) : undefined);
    this.scrubber.show(this.round);
    this.root.dataset.round = String(this.round);
    this.refreshSideSoon();
    this.save();
  }

  /** Selects an agent (or none) and shows it in the side panel. */
  select(index: number | undefined, focusCamera = false): void {
    this.selected = index;
    this.renderer.setSelected(index);
    if (focusCamera && index !== undefined) this.renderer.focus(index);
    this.refreshSide();
    this.save();
  }

  /** Shows a host status line (analysing / error). */
  setStatus(state: 'analysing' | 'idle' | 'error', message?: string): void {
    this.status.dataset.state = state;
    this.status.textContent = state === 'analysing' ? 'Re-analysing…' : state === 'error' ? `Analysis failed: ${plainLabel(message ?? '', 300)}` : '';
  }

  /** Tears the view down (before a new payload replaces it). */
  dispose(): void {
    this.scrubber.stop();
    if (this.cameraTimer) clearTimeout(this.cameraTimer);
    cancelAnimationFrame(this.firstSideFrame);
    if (this.sideTimer) clearTimeout(this.sideTimer);
    for (const dispose of this.disposers) dispose();
    this.renderer.kill();
  }

  /** The live marker: receiving and following, receiving while the user looks at an earlier round, or closed. */
  private showLive(): void {
    const badge = this.liveBadge;
    if (!badge) return;
    const open = badge.dataset.live === 'open';
    const last = this.model.rounds - 1;
    badge.dataset.follow = String(this.follow);
    badge.disabled = this.follow;
    badge.textContent = !open ? 'Run closed' : this.follow ? '● Live' : `● Live · go to round ${last}`;
    badge.title = !open
      ? 'The run has ended: no more spans arrive for it'
      : this.follow
        ? 'Receiving spans: the view moves to each new round as it is decided'
        : `Receiving spans; you are looking at round ${this.round}. Click (or move the slider to the end) to follow the latest round again`;
  }

  private button(text: string, title: string, action: () => void, name: string): HTMLButtonElement {
    const button = el('button', { type: 'button', title, 'aria-label': title, 'data-action': name }, text);
    button.addEventListener('click', action);
    return button;
  }

  private savePng(): void {
    this.bridge.post({ type: 'savePng', dataUrl: this.renderer.toPng() });
  }

  private refreshSideSoon(delayMs = SIDE_SETTLE_MS): void {
    if (this.sideTimer) clearTimeout(this.sideTimer);
    this.sideTimer = setTimeout(() => {
      this.sideTimer = undefined;
      this.refreshSide();
    }, delayMs);
  }

  private refreshSide(): void {
    this.details.dataset.round = String(this.round);
    const panelActions: PanelActions = {
      select: (i) => this.select(i, true),
      ...(this.bridge.mode === 'vscode' ? { openLine: (line: number) => this.bridge.post({ type: 'openLine', line }) } : {}),
    };
    const listActions: ListActions = { select: (i) => this.select(i, true), emphasise: (e) => this.emphasise(e) };
    if (this.selected === undefined) replaceChildren(this.details, renderSummary(this.model, this.round));
    else {
      const back = el('button', { type: 'button', class: 'link back', title: 'Back to the run summary (Esc)' }, '← Run summary');
      back.addEventListener('click', () => this.select(undefined));
      replaceChildren(this.details, back, renderAgent(this.model, this.selected, this.round, panelActions));
    }
    replaceChildren(this.lists,
      this.matches ? matchesList(this.model, this.matches, this.round, listActions) : null,
      sourcesList(this.model, this.round, listActions),
      pathsList(this.model, this.round, listActions),
      remediationList(this.model, this.round, listActions),
      alertsList(this.model, this.round, listActions));
  }

  private emphasise(emphasis: Emphasis | undefined): void {
    this.renderer.setEmphasis(emphasis);
  }

  private currentMatches(): number[] | undefined {
    const active = this.query.trim() !== '' || this.category !== 'all';
    return active ? matchAgents(this.model, this.query, this.category, this.round) : undefined;
  }

  private showMatchCount(): void {
    this.matchCount.textContent = this.matches ? `${this.matches.length} of ${this.model.ids.length}` : '';
  }

  private applyFilter(): void {
    this.matches = this.currentMatches();
    this.renderer.setFilter(this.matches ? new Set(this.matches) : undefined);
    this.showMatchCount();
    this.refreshSide();
  }

  private wireEvents(): void {
    this.searchInput.addEventListener('input', () => {
      this.query = this.searchInput.value;
      this.applyFilter();
      this.save();
    });
    this.searchInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && this.matches?.length) this.select(this.matches[0], true);
    });
    this.categorySelect.addEventListener('change', () => {
      this.category = this.categorySelect.value as Category | 'all';
      this.applyFilter();
      this.save();
    });
    this.graphBox.addEventListener('keydown', (event) => this.onGraphKey(event));
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
      if (event.key === '/') {
        event.preventDefault();
        this.searchInput.focus();
      } else if (event.key === 'p' || event.key === 'P') this.scrubber.toggle();
      else if (event.key === 'Escape' && this.selected !== undefined) this.select(undefined);
    };
    document.addEventListener('keydown', onKey);
    this.disposers.push(() => document.removeEventListener('keydown', onKey));
    const onTheme = new MutationObserver(() => this.renderer.setTheme(readTheme()));
    onTheme.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    this.disposers.push(() => onTheme.disconnect());
  }

  private onGraphKey(event: KeyboardEvent): void {
    const pans: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (pans[event.key]) this.renderer.pan(...pans[event.key]);
    else if (event.key === '+' || event.key === '=') this.renderer.zoom(1);
    else if (event.key === '-') this.renderer.zoom(-1);
    else if (event.key === '0') this.renderer.fit();
    else if (event.key === 'n' || event.key === 'N') this.stepFlagged(event.shiftKey ? -1 : 1);
    else if (event.key === 'Enter' && this.selected !== undefined) this.details.querySelector<HTMLElement>('button, summary')?.focus();
    else return;
    event.preventDefault();
  }

  /** Selects the next (or previous) agent flagged in the current round. */
  private stepFlagged(direction: 1 | -1): void {
    const flagged = this.model.ids.map((_, i) => i).filter((i) => this.model.category[this.round][i] !== 'benign');
    const pool = flagged.length ? flagged : this.model.ids.map((_, i) => i);
    const at = this.selected === undefined ? -1 : pool.indexOf(this.selected);
    const next = pool[(at + direction + pool.length) % pool.length];
    this.select(next, true);
  }

  private saveCameraSoon(): void {
    if (this.cameraTimer) clearTimeout(this.cameraTimer);
    this.cameraTimer = setTimeout(() => this.save(), 300);
  }

  private save(): void {
    const camera = this.renderer.sigma.getCamera().getState();
    const state: ViewState = {
      round: this.round,
      follow: this.follow,
      ...(this.selected !== undefined ? { selected: this.model.ids[this.selected] } : {}),
      query: this.query,
      category: this.category,
      camera: { x: camera.x, y: camera.y, ratio: camera.ratio, angle: camera.angle },
    };
    this.bridge.setState(state);
  }
}

function clampRound(k: number, rounds: number): number {
  return Number.isInteger(k) ? Math.min(Math.max(0, k), Math.max(0, rounds - 1)) : Math.max(0, rounds - 1);
}
