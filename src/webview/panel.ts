// The side panel: the selected agent (role, scores over rounds, the rule that decided it, remediation, each round's
// output with the filter-removed parts marked) or, with nothing selected, the run summary. Text via textContent only.
import type { OutputView } from '../core/graphview/types';
import type { Category } from '../core/trace/types';
import { el, svg } from './dom';
import { countHidden, outputSegments, plainLabel } from './text';
import { REASON_TEXT, RULE_TEXT, unmeasured, warningText } from '../core/guard/messages';
import { CATEGORY_GLYPH, CATEGORY_LABEL, chars, pct, prob } from './wording';
import { countsAt, type ViewModel } from './viewModel';

const ACTION_TEXT = { replace: 'Replace', rehabilitate: 'Rehabilitate', quarantine: 'Quarantine' } as const;

/** Actions the panel can ask of the app. */
export interface PanelActions {
  select(index: number): void;
  openLine?: (line: number) => void;
}

/** A category badge: glyph + word, coloured by CSS class. */
export function badge(category: Category): HTMLElement {
  return el('span', { class: `badge cat-${category}` }, `${CATEGORY_GLYPH[category]} ${CATEGORY_LABEL[category]}`);
}

/** A button naming an agent that selects it. */
export function agentButton(model: ViewModel, id: string, actions: PanelActions, round: number): HTMLElement {
  const i = model.index.get(id);
  const category = i === undefined ? 'benign' : model.category[round][i];
  const button = el('button', { class: `agent-link cat-${category}`, type: 'button', title: `Select ${plainLabel(id, 200)}` }, `${CATEGORY_GLYPH[category]} ${plainLabel(id, 48)}`);
  if (i !== undefined) button.addEventListener('click', () => actions.select(i));
  return button;
}

/** The run summary shown when no agent is selected. */
export function renderSummary(model: ViewModel, round: number): HTMLElement {
  const { analysis } = model.payload;
  const counts = countsAt(model, round);
  const last = analysis.rounds[round];
  const rows: [string, string][] = [
    ...(analysis.run !== undefined ? [['Run id', plainLabel(analysis.run, 400)] as [string, string]] : []),
    ['Agents', String(model.ids.length)],
    ['Edges', String(analysis.edges.length)],
    ['Rounds', String(model.rounds)],
    ['Scorer / filter', `${analysis.scorer} / ${analysis.filter}`],
  ];
  if (analysis.task?.answer !== undefined) rows.push(['ASR this round', pct(last?.asr)], ['Majority defended (last round)', analysis.mdsr === null ? '—' : analysis.mdsr >= 0.5 ? 'yes' : 'no']);
  const section = el('div', { class: 'summary' },
    el('h2', {}, 'Run'),
    analysis.task?.question ? el('p', { class: 'task' }, plainLabel(analysis.task.question, 400)) : null,
    el('div', { class: 'counts', role: 'group', 'aria-label': `Round ${round} counts` },
      badgeCount('attacker', counts.attacker), badgeCount('infected', counts.infected), badgeCount('benign', counts.benign)),
    definitionList(rows),
  );
  if (analysis.evaluation) {
    const e = analysis.evaluation;
    const scores = (s: typeof e.attacker) => unmeasured(s) ?? `${prob(s.precision)} / ${prob(s.recall)} / ${prob(s.f1)}`;
    section.append(el('h3', {}, 'Against the trace labels'), definitionList([
      ['Attacker P / R / F1', scores(e.attacker)],
      ['Infected P / R / F1', scores(e.infected)],
      ['Benign false-positive rate', prob(e.benignFalsePositiveRate)],
    ]));
  }
  if (analysis.warnings.length > 0) {
    section.append(el('h3', {}, `Warnings (${analysis.warnings.length})`), el('ul', { class: 'warnings' }, ...analysis.warnings.slice(0, 20).map((w) => el('li', {}, plainLabel(warningText(w), 200)))));
  }
  section.append(el('p', { class: 'hint' }, 'Click an agent, or pick one from the lists, to see its outputs, scores and remediation.'));
  return section;
}

function badgeCount(category: Category, n: number): HTMLElement {
  return el('span', { class: `badge cat-${category}`, 'data-count': category }, `${CATEGORY_GLYPH[category]} ${n} ${CATEGORY_LABEL[category].toLowerCase()}`);
}

function definitionList(rows: [string, string][]): HTMLElement {
  const dl = el('dl', {});
  for (const [term, value] of rows) dl.append(el('dt', {}, term), el('dd', {}, value));
  return dl;
}

/** The selected agent's panel. */
export function renderAgent(model: ViewModel, i: number, round: number, actions: PanelActions): HTMLElement {
  const { analysis } = model.payload;
  const agent = analysis.agents[i];
  const now = model.detail[round][i];
  const category = model.category[round][i];
  const panel = el('div', { class: 'agent', 'data-agent': agent.id },
    el('h2', { class: 'agent-title' }, badge(category), ' ', el('span', { class: 'agent-id', dir: 'ltr' }, plainLabel(agent.id, 120))),
    el('p', { class: 'role' }, agent.role ? `Role: ${plainLabel(agent.role, 120)}` : 'No role declared'),
    el('p', { class: 'why' }, el('strong', {}, `Round ${round}: `), now ? RULE_TEXT[now.rule] ?? now.rule : 'no output this round'),
    now?.evidence !== undefined ? el('p', { class: 'evidence-label' }, `It wrote in round ${now.evidence.round}:`) : null,
    now?.evidence !== undefined ? el('blockquote', { class: 'evidence' }, plainLabel(now.evidence.text, 300)) : null,
    scoreChart(model, i, round),
    scoreTable(model, i, round),
  );
  const step = model.remediationByAgent.get(agent.id);
  panel.append(el('h3', {}, 'Remediation'));
  if (!step) panel.append(el('p', { class: 'muted' }, category === 'benign' ? 'None: benign agents are never filtered.' : 'None planned.'));
  else {
    const box = el('div', { class: `remediation action-${step.action}` },
      el('p', {}, el('strong', {}, ACTION_TEXT[step.action]), step.donor ? ' with the role and prompt of ' : '', step.donor ? agentButton(model, step.donor, actions, round) : null),
      el('p', { class: 'muted' }, plainLabel(step.reason, 400)));
    const label = step.restore ? `Restored output (round ${step.restore.round}, before infection${step.restore.answer !== undefined ? `; answer ${plainLabel(step.restore.answer, 24)}` : ''})` : step.action === 'quarantine' ? 'Result as the model should read it' : 'Filtered latest output';
    if (step.filtered) box.append(el('div', { class: 'label' }, label), el('pre', { class: 'output filtered' }, step.filtered));
    panel.append(box);
  }
  const ins = analysis.edges.filter(([, to]) => to === agent.id).map(([from]) => from);
  const outs = analysis.edges.filter(([from]) => from === agent.id).map(([, to]) => to);
  panel.append(el('h3', {}, 'Neighbours'), neighbourRow('Receives from', ins, model, actions, round), neighbourRow('Sends to', outs, model, actions, round));
  panel.append(el('h3', {}, 'Outputs by round'));
  model.payload.outputs[i].forEach((output, k) => panel.append(outputBlock(model, i, k, output, round, actions)));
  return panel;
}

function neighbourRow(label: string, ids: string[], model: ViewModel, actions: PanelActions, round: number): HTMLElement {
  const shown = ids.slice(0, 24);
  return el('div', { class: 'neighbours' }, el('span', { class: 'label' }, `${label} (${ids.length})`), ...shown.map((id) => agentButton(model, id, actions, round)), ids.length > shown.length ? el('span', { class: 'muted' }, ` and ${ids.length - shown.length} more`) : null);
}

function outputBlock(model: ViewModel, i: number, k: number, output: OutputView | null, round: number, actions: PanelActions): HTMLElement {
  const category = model.category[k][i];
  const answer = model.detail[k]?.[i]?.answer;
  const head = el('div', { class: 'output-head' }, el('span', {}, `Round ${k}`), answer !== undefined ? el('span', { class: 'answer' }, `answer ${plainLabel(answer, 24)}`) : null, badge(category));
  const block = el('details', { class: `output-block${k === round ? ' current' : ''}`, 'data-round': k }, el('summary', {}, head));
  if (k === round || category !== 'benign') (block as HTMLDetailsElement).open = true;
  if (!output) {
    block.append(el('p', { class: 'muted' }, 'silent this round'));
    return block;
  }
  if (output.line !== undefined) {
    const line = output.line;
    if (actions.openLine) {
      const go = el('button', { class: 'link', type: 'button', title: 'Open this line of the trace' }, `line ${line}`);
      go.addEventListener('click', (event) => {
        event.preventDefault();
        actions.openLine?.(line);
      });
      head.append(go);
    } else head.append(el('span', { class: 'muted' }, `line ${line}`));
  }
  const pre = el('pre', { class: 'output', dir: 'ltr' });
  for (const segment of outputSegments(output)) {
    if (segment.kind === 'plain') pre.append(document.createTextNode(segment.text));
    else if (segment.kind === 'hidden') pre.append(el('span', { class: 'hidden-char', title: 'invisible or bidirectional control character' }, segment.text));
    else pre.append(el('mark', { class: 'removed', title: `the filter removes this: ${REASON_TEXT[segment.reason as keyof typeof REASON_TEXT] ?? segment.reason}` }, segment.text));
  }
  block.append(pre);
  const notes: string[] = [];
  if (output.removed.length) notes.push(`${output.removed.length} passage(s) the filter would remove are struck through`);
  const hidden = countHidden(output.text);
  if (hidden) notes.push(`${hidden} invisible/bidi character(s) shown as ⟨U+…⟩`);
  if (output.truncated) notes.push(`${chars(output.truncated)} more not shown`);
  if (notes.length) block.append(el('p', { class: 'muted note' }, notes.join(' · ')));
  return block;
}

function scoreTable(model: ViewModel, i: number, round: number): HTMLElement {
  const table = el('table', { class: 'scores' }, el('thead', {}, el('tr', {}, el('th', {}, 'Round'), el('th', {}, 'Category'), el('th', {}, 'P_atk'), el('th', {}, 'P_inf'), el('th', {}, 'Trend'), el('th', {}, 'Rule'))));
  const body = el('tbody', {});
  model.detail.forEach((row, k) => {
    const d = row[i];
    body.append(el('tr', { class: k === round ? 'current' : undefined },
      el('td', {}, String(k)), el('td', {}, badge(model.category[k][i])), el('td', {}, prob(d?.pAtk)), el('td', {}, prob(d?.pInf)), el('td', {}, d ? (d.trend >= 0 ? '+' : '') + d.trend.toFixed(2) : '—'), el('td', { class: 'rule', title: d ? RULE_TEXT[d.rule] ?? d.rule : '' }, d?.rule ?? '—')));
  });
  table.append(body);
  return table;
}

/** P_atk and P_inf over rounds, with the 0.5 thresholds and the current round marked. */
function scoreChart(model: ViewModel, i: number, round: number): SVGElement {
  const width = 260;
  const height = 86;
  const pad = 8;
  // The legend sits above the plot (scores near 1 drew over it), and the axis is labelled 0 and 1 at the left.
  const top = pad + 14;
  const left = pad + 8;
  const n = Math.max(1, model.rounds - 1);
  const x = (k: number) => left + ((width - left - pad) * k) / n;
  const y = (p: number) => height - pad - (height - pad - top) * p;
  const line = (key: 'pAtk' | 'pInf') => model.detail.map((row, k) => `${x(k).toFixed(1)},${y(row[i]?.[key] ?? 0).toFixed(1)}`).join(' ');
  const chart = svg('svg', { class: 'score-chart', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': 'P_atk and P_inf over rounds' },
    svg('line', { class: 'threshold', x1: left, x2: width - pad, y1: y(0.5), y2: y(0.5) }),
    svg('line', { class: 'cursor', x1: x(round), x2: x(round), y1: top - 2, y2: height - pad / 2 }),
    svg('text', { class: 'axis-text', x: pad - 2, y: y(1) + 3 }, '1'),
    svg('text', { class: 'axis-text', x: pad - 2, y: y(0) + 3 }, '0'),
    svg('polyline', { class: 'p-atk', points: line('pAtk') }),
    svg('polyline', { class: 'p-inf', points: line('pInf') }),
  );
  model.detail.forEach((row, k) => {
    chart.append(svg('circle', { class: 'p-atk', cx: x(k), cy: y(row[i]?.pAtk ?? 0), r: 2.5 }), svg('rect', { class: 'p-inf', x: x(k) - 2.5, y: y(row[i]?.pInf ?? 0) - 2.5, width: 5, height: 5 }));
  });
  const legend = svg('text', { class: 'legend-text', x: left, y: 11 },
    svg('tspan', { class: 'p-atk' }, '● P_atk'),
    svg('tspan', { class: 'p-inf', dx: 10 }, '■ P_inf'),
    svg('tspan', { dx: 10 }, '- - 0.5 threshold'));
  chart.append(legend);
  return chart;
}
