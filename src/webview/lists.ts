// The lists beside the graph: sources, infection paths, remediation plan and search matches. Hovering or focusing an
// item emphasises it on the graph; clicking or Enter selects the agent.
import { el } from './dom';
import type { Emphasis } from './renderer';
import { remediationSummary } from '../core/guard/messages';
import { plainLabel } from './text';
import { CATEGORY_GLYPH } from './wording';
import { edgeKey, type ViewModel } from './viewModel';

/** What list items can ask of the app. */
export interface ListActions {
  select(index: number): void;
  emphasise(emphasis: Emphasis | undefined): void;
}

const MAX_ITEMS = 200;

function item(label: string, emphasis: Emphasis, target: number | undefined, actions: ListActions, className: string): HTMLElement {
  const button = el('button', { type: 'button', class: `list-item ${className}` }, label);
  const on = () => actions.emphasise(emphasis);
  const off = () => actions.emphasise(undefined);
  button.addEventListener('mouseenter', on);
  button.addEventListener('focus', on);
  button.addEventListener('mouseleave', off);
  button.addEventListener('blur', off);
  if (target !== undefined) button.addEventListener('click', () => actions.select(target));
  return el('li', {}, button);
}

/**
 * A run-wide list's title: sources, paths and the plan are the run's as of its last round, so at an earlier round the
 * title says so (an agent flagged then and cleared later has none of them).
 */
function runWide(title: string, model: ViewModel, round: number): string {
  return round < model.rounds - 1 ? `${title} (as of round ${model.rounds - 1})` : title;
}

function section(id: string, title: string, count: number, items: HTMLElement[], empty: string): HTMLElement {
  const list = el('ul', { class: 'list', 'aria-label': title });
  list.append(...items.slice(0, MAX_ITEMS));
  return el('section', { class: 'list-section', id, 'data-count': count },
    el('h2', {}, `${title} `, el('span', { class: 'count' }, String(count))),
    count === 0 ? el('p', { class: 'muted' }, empty) : list,
    count > MAX_ITEMS ? el('p', { class: 'muted' }, `${count - MAX_ITEMS} more not listed`) : null);
}

function glyphOf(model: ViewModel, id: string, round: number): string {
  const i = model.index.get(id);
  return CATEGORY_GLYPH[i === undefined ? 'benign' : model.category[round][i]];
}

/** Builds the sources list. */
export function sourcesList(model: ViewModel, round: number, actions: ListActions): HTMLElement {
  const { sources, infectionPaths } = model.payload.analysis;
  const items = sources.map((id) => {
    const nodes = new Set([id]);
    const edges = new Set<string>();
    for (const path of infectionPaths) {
      if (path[0] !== id) continue;
      path.forEach((n, j) => {
        nodes.add(n);
        if (j > 0) edges.add(edgeKey(path[j - 1], n));
      });
    }
    return item(`${glyphOf(model, id, round)} ${plainLabel(id, 60)}`, { nodes, edges }, model.index.get(id), actions, 'source');
  });
  return section('sources', runWide('Sources', model, round), sources.length, items, 'No source found.');
}

/** Builds the infection-paths list. */
export function pathsList(model: ViewModel, round: number, actions: ListActions): HTMLElement {
  const { infectionPaths } = model.payload.analysis;
  const items = infectionPaths.slice(0, MAX_ITEMS).map((path) => {
    const edges = new Set(path.slice(1).map((n, j) => edgeKey(path[j], n)));
    const label = path.map((id) => `${glyphOf(model, id, round)} ${plainLabel(id, 24)}`).join('  →  ');
    return item(label, { nodes: new Set(path), edges }, model.index.get(path[path.length - 1]), actions, 'path');
  });
  return section('paths', runWide('Infection paths', model, round), infectionPaths.length, items, 'No infection path.');
}

/** Builds the remediation-plan list. */
export function remediationList(model: ViewModel, round: number, actions: ListActions): HTMLElement {
  const { remediation } = model.payload.analysis;
  const items = remediation.slice(0, MAX_ITEMS).map((step) => {
    const nodes = new Set([step.agent, ...(step.donor ? [step.donor] : [])]);
    const what = remediationSummary(step, (text) => plainLabel(text, 24));
    return item(`${glyphOf(model, step.agent, round)} ${plainLabel(step.agent, 32)}: ${what}`, { nodes, edges: new Set() }, model.index.get(step.agent), actions, `step action-${step.action}`);
  });
  return section('remediation', runWide('Remediation', model, round), remediation.length, items, 'Nothing to remediate.');
}

/** Builds the search-matches list. */
export function matchesList(model: ViewModel, matches: number[], round: number, actions: ListActions): HTMLElement {
  const items = matches.slice(0, MAX_ITEMS).map((i) => {
    const id = model.ids[i];
    return item(`${CATEGORY_GLYPH[model.category[round][i]]} ${plainLabel(id, 60)}`, { nodes: new Set([id]), edges: new Set() }, i, actions, 'match');
  });
  return section('matches', 'Matches', matches.length, items, 'No agent matches.');
}

const SIGNAL_TEXT: Record<string, string> = {
  viralPersona: 'viral persona',
  propagation: 'propagation across agents',
  propagationRequest: 'asks to be passed on',
  verbatimSpread: 'copied verbatim along edges',
};

/** Builds the propagation-alerts list (advisory monitor findings), when the analysis carries any. */
export function alertsList(model: ViewModel, round: number, actions: ListActions): HTMLElement | null {
  const alerts = model.payload.analysis.alerts;
  if (!alerts || alerts.length === 0) return null;
  const items = alerts.slice(0, MAX_ITEMS).map((alert) => {
    const chain = alert.chain ?? [];
    const ids = [alert.subject, ...(alert.sessions ?? []), ...chain.map((hop) => hop.agent)].filter((id) => model.index.has(id));
    const edges = new Set(chain.slice(1).map((hop, j) => edgeKey(chain[j].agent, hop.agent)));
    const what = SIGNAL_TEXT[alert.signal] ?? alert.signal;
    const markers = alert.markers.length ? ` (${alert.markers.slice(0, 3).map((m) => plainLabel(m, 24)).join(', ')}${alert.markers.length > 3 ? ', …' : ''})` : '';
    return item(`${glyphOf(model, alert.subject, round)} ${plainLabel(alert.subject, 32)}: ${what}${markers}`, { nodes: new Set(ids), edges }, model.index.get(alert.subject), actions, `alert signal-${alert.signal}`);
  });
  return section('alerts', 'Propagation alerts', alerts.length, items, '');
}
