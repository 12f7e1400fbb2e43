// Shared fixture for the graph-view unit tests: the small labelled trace, analysed, as a view payload.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { analyzeTrace } from '../../../src/core/guard/analyze';
import type { RuleId } from '../../../src/core/guard/types';
import { buildGraphViewPayload } from '../../../src/core/graphview/payload';
import type { GraphViewPayload } from '../../../src/core/graphview/types';
import { parseTraceText } from '../../../src/core/trace/parse';
import type { Trace } from '../../../src/core/trace/types';

export const SMALL_TRACE = path.join(__dirname, '../../fixtures/graphview/small.jsonl');

/** Parses a trace from JSONL text. */
export function traceOf(text: string): Trace {
  return parseTraceText(text, { file: 'fixture.jsonl' });
}

/** The small fixture as a payload. */
export async function smallPayload(): Promise<GraphViewPayload> {
  const trace = traceOf(readFileSync(SMALL_TRACE, 'utf8'));
  return buildGraphViewPayload(trace, await analyzeTrace(trace), { title: 'small.jsonl' });
}

type Cat = 'benign' | 'attacker' | 'infected';

/**
 * A hand-written payload (no guard involved, so these tests do not move when the guard is retrained):
 * m attacks from round 0; a infected from round 1; b from round 2; c stays benign. Edges m->a, a->b, b->c, c->m.
 */
export function handPayload(): GraphViewPayload {
  const ids = ['m', 'a', 'b', 'c'];
  const cats: Cat[][] = [
    ['attacker', 'benign', 'benign', 'benign'],
    ['attacker', 'infected', 'benign', 'benign'],
    ['attacker', 'infected', 'infected', 'benign'],
  ];
  const score = (c: Cat) => ({ pAtk: c === 'attacker' ? 0.9 : 0.1, pInf: c === 'infected' ? 0.8 : 0.05 });
  const rule = (c: Cat): RuleId => (c === 'attacker' ? 'head-attacker' : c === 'infected' ? 'head-infected' : 'below-thresholds');
  return {
    schema: 'agent-immune/graph-view/v1',
    title: 'hand.jsonl',
    analysis: {
      schema: 'agent-immune/analysis/v1',
      scorer: 'embedded',
      filter: 'embedded',
      agents: ids.map((id, i) => ({ id, category: cats[2][i], ...score(cats[2][i]) })),
      edges: [['m', 'a'], ['a', 'b'], ['b', 'c'], ['c', 'm']],
      rounds: cats.map((row, k) => ({
        round: k,
        agents: Object.fromEntries(ids.map((id, i) => [id, { ...score(row[i]), pInfSmoothed: 0, trend: 0, category: row[i], rule: rule(row[i]) }])),
        asr: k / 4,
        correct: null,
      })),
      mdsr: 1,
      sources: ['m'],
      infectionPaths: [['m', 'a'], ['m', 'a', 'b']],
      remediation: [{ agent: 'm', action: 'replace', donor: 'c', reason: 'attacker' }],
      warnings: [],
    },
    positions: [0, 0, 1, 0, 1, 1, 0, 1],
    // Lines: header on 1, then round k agent i on 2 + 4k + i.
    outputs: ids.map((_, i) => cats.map((_, k) => ({ text: `out ${i} ${k}`, truncated: 0, line: 2 + 4 * k + i, removed: [] }))),
  };
}
