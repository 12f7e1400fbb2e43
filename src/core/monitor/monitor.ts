// The monitor's entry points: run every enabled signal over persisted documents or over a run, then apply cooldowns.
// Pure: callers read files and traces, and decide where alerts go.
import type { RunModel } from '../guard/types';
import type { MonitorConfig } from './config';
import { applyCooldown } from './cooldown';
import { propagation, type SessionObservation } from './propagation';
import { propagationRequest } from './propagationRequest';
import { SIGNALS, type MonitorDocument, type MonitorFinding } from './types';
import { verbatimSpread, type WordHashesOf } from './verbatimSpread';
import { viralPersona } from './viralPersona';
import { lowerSameLength } from './vocabulary';

/** Monitors documents (files agents persist to): one session per subject; propagation windows use their times. */
export function monitorDocuments(documents: MonitorDocument[], config: MonitorConfig): MonitorFinding[] {
  const findings: MonitorFinding[] = [];
  const observations: SessionObservation[] = [];
  for (const document of documents) findings.push(...perDocument(document, config, observations, (document.at ?? 0) / 1000));
  if (config.signals.propagation) findings.push(...propagation(observations, config.propagationSessions, config.propagationWindowSeconds));
  return finish(findings, config);
}

/**
 * Monitors a run: every agent's output in every round, propagation across agents by rounds, and verbatim spread along
 * edges. `known` gives word hashes the guard already computed, so verbatimSpread does not tokenise those outputs again;
 * `memo` keeps each output's own signals between calls, so a run monitored again after a new round scans only that round.
 */
export function monitorRun(model: RunModel, config: MonitorConfig, known?: WordHashesOf, memo?: DocumentMemo): MonitorFinding[] {
  const findings: MonitorFinding[] = [];
  const observations: SessionObservation[] = [];
  model.agents.forEach((agent, i) => {
    model.outputs[i].forEach((text, round) => {
      if (text === undefined) return;
      const document = { subject: agent, text, round, line: model.lines[i][round] };
      if (!memo) return void findings.push(...perDocument(document, config, observations, round));
      const key = `${round}\u0000${agent}`;
      let seen = memo.get(key);
      if (seen?.text !== text || seen.line !== document.line) {
        const own: SessionObservation[] = [];
        seen = { text, line: document.line, findings: perDocument(document, config, own, round), observations: own };
        memo.set(key, seen);
      }
      findings.push(...seen.findings.map((f) => ({ ...f })));
      observations.push(...seen.observations);
    });
  });
  if (config.signals.propagation) findings.push(...propagation(observations, config.propagationSessions, config.propagationWindowRounds));
  if (config.signals.verbatimSpread) findings.push(...verbatimSpread(model, config.verbatimMinTokens, config.verbatimMinAgents, known));
  return finish(findings, config);
}

/** Per-output results kept between calls on a growing run (the online guard), keyed by round and agent. */
export type DocumentMemo = Map<string, { text: string; line: number | undefined; findings: MonitorFinding[]; observations: SessionObservation[] }>;

/** Characters that take no space: inside a word ("for\u200bward") they hide it from every reader of words. */
const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200d\u2060\ufeff]/;

/**
 * The signals of one document, read with its zero-width characters taken out (an attacker's cheapest evasion), each
 * finding's evidence range mapped back onto the text as written.
 */
function perDocument(document: MonitorDocument, config: MonitorConfig, observations: SessionObservation[], at: number): MonitorFinding[] {
  if (!ZERO_WIDTH.test(document.text)) return readDocument(document, config, observations, at);
  const kept: number[] = [];
  const chars: string[] = [];
  for (let i = 0; i < document.text.length; i++) {
    if (ZERO_WIDTH.test(document.text[i])) continue;
    kept.push(i);
    chars.push(document.text[i]);
  }
  const text = chars.join('');
  kept.push(document.text.length);
  const back = (e: MonitorFinding['evidence']) => ({ ...e, start: kept[e.start], end: e.end > 0 ? kept[e.end - 1] + 1 : kept[0] });
  const own: SessionObservation[] = [];
  const findings = readDocument({ ...document, text }, config, own, at).map((f) => ({ ...f, evidence: back(f.evidence) }));
  observations.push(...own.map((o) => ({ ...o, evidence: back(o.evidence) })));
  return findings;
}

/** The per-document signals; a viralPersona hit is also an observation for propagation, even when its own alert is off. */
function readDocument(document: MonitorDocument, config: MonitorConfig, observations: SessionObservation[], at: number): MonitorFinding[] {
  const out: MonitorFinding[] = [];
  const lower = lowerSameLength(document.text);
  if (config.signals.viralPersona || config.signals.propagation) {
    const persona = viralPersona(document, config, lower);
    if (persona) {
      observations.push({ session: document.subject, at, markers: persona.markers, evidence: persona.evidence });
      if (config.signals.viralPersona) out.push(persona);
    }
  }
  if (config.signals.propagationRequest) {
    const request = propagationRequest(document, lower);
    if (request) out.push(request);
  }
  return out;
}

function finish(findings: MonitorFinding[], config: MonitorConfig): MonitorFinding[] {
  return applyCooldown(findings, config.cooldownSeconds * 1000).sort((a, b) => SIGNALS.indexOf(a.signal) - SIGNALS.indexOf(b.signal) || a.subject.localeCompare(b.subject));
}
