// The round scrubber: slider, play/pause, round readout, per-round counts and the ASR mini chart (when the task's
// answer is known). Replays the run by calling back with the round.
import type { Category } from '../core/trace/types';
import { el, replaceChildren, svg } from './dom';
import { CATEGORY_GLYPH, pct } from './wording';
import { countsAt, type ViewModel } from './viewModel';

/** The scrubber's DOM and controls. */
export class Scrubber {
  readonly element: HTMLElement;
  readonly slider: HTMLInputElement;
  private readonly play: HTMLButtonElement;
  private readonly readout: HTMLElement;
  private readonly counts: HTMLElement;
  private readonly chart: HTMLElement;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly model: ViewModel, round: number, private readonly onRound: (k: number) => void) {
    const last = model.rounds - 1;
    this.play = el('button', { type: 'button', class: 'play', 'aria-label': 'Play rounds', title: 'Play the run round by round (P)' }, '▶');
    this.slider = el('input', { type: 'range', min: 0, max: last, step: 1, value: round, 'aria-label': 'Round', id: 'round-slider' });
    this.readout = el('output', { class: 'readout', for: 'round-slider', 'aria-live': 'polite' });
    this.counts = el('div', { class: 'round-counts' });
    this.chart = el('div', { class: 'asr-chart' });
    this.element = el('footer', { class: 'scrubber' }, this.play, this.slider, this.readout, this.counts, this.chart);
    this.slider.disabled = last === 0;
    this.play.disabled = last === 0;
    this.slider.addEventListener('input', () => this.onRound(Number(this.slider.value)));
    this.play.addEventListener('click', () => this.toggle());
    this.show(round);
  }

  /** Reflects round k in the controls (without calling back). */
  show(k: number): void {
    this.slider.value = String(k);
    this.slider.setAttribute('aria-valuetext', `Round ${k} of ${this.model.rounds - 1}`);
    this.readout.textContent = `Round ${k} / ${this.model.rounds - 1}`;
    const counts = countsAt(this.model, k);
    replaceChildren(this.counts, ...(['attacker', 'infected', 'benign'] as Category[]).map((c) => el('span', { class: `badge cat-${c}`, 'data-count': c, title: c }, `${CATEGORY_GLYPH[c]} ${counts[c]}`)));
    this.drawChart(k);
  }

  /** Starts or stops playback. */
  toggle(): void {
    if (this.timer) return this.stop();
    if (Number(this.slider.value) >= this.model.rounds - 1) this.onRound(0);
    this.play.textContent = '⏸';
    this.play.setAttribute('aria-label', 'Pause');
    this.timer = setInterval(() => {
      const next = Number(this.slider.value) + 1;
      if (next > this.model.rounds - 1) return this.stop();
      this.onRound(next);
    }, 900);
  }

  /** Stops playback. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.play.textContent = '▶';
    this.play.setAttribute('aria-label', 'Play rounds');
  }

  private drawChart(k: number): void {
    const rounds = this.model.payload.analysis.rounds;
    if (rounds.every((r) => r.asr === null)) {
      replaceChildren(this.chart);
      this.chart.hidden = true;
      return;
    }
    this.chart.hidden = false;
    const width = Math.min(240, 22 * rounds.length + 8);
    const height = 30;
    const bar = (width - 8) / rounds.length;
    const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': `ASR by round; round ${k}: ${pct(rounds[k]?.asr)}` });
    rounds.forEach((r, j) => {
      const h = Math.max(1.5, (height - 4) * (r.asr ?? 0));
      const rect = svg('rect', { class: j === k ? 'bar current' : 'bar', x: 4 + j * bar + 1, y: height - 2 - h, width: Math.max(2, bar - 3), height: h });
      rect.append(svg('title', {}, `round ${r.round}: ASR ${pct(r.asr)}`));
      chart.append(rect);
    });
    replaceChildren(this.chart, el('span', { class: 'label' }, `ASR ${pct(rounds[k]?.asr)}`), chart);
  }
}
