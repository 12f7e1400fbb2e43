// The guard hands its word hashes to the monitor's verbatimSpread (one tokenisation per output): the alerts are the
// same as the monitor computing them itself, for ASCII text and for text where tokenisers could differ.
import * as assert from 'node:assert/strict';
import { defaultConfig } from '../../../src/core/config';
import { analyzeRun } from '../../../src/core/guard/analyze';
import { buildRunModel } from '../../../src/core/guard/model';
import { resolveMonitorConfig } from '../../../src/core/monitor/config';
import { monitorRun } from '../../../src/core/monitor/monitor';
import { simulate } from '../../../src/core/sim/simulate';
import { parseTraceText, serializeTrace } from '../../../src/core/trace/parse';

describe('guard and monitor share word hashes', () => {
  const virus = serializeTrace(simulate({ seed: 77, topology: 'chain', agents: 30, attackers: 4, rounds: 5, family: 'virus', split: 'heldout', filler: 3 }).trace());
  const cases: [string, string][] = [
    ['ASCII outputs', virus],
    ['non-ASCII outputs (a final sigma before a full stop)', virus.replace(/Separately I/g, 'Séparément ΟΔΟΣ.Α I')],
  ];
  for (const [name, text] of cases) {
    it(`analyze's alerts equal the monitor's own: ${name}`, async () => {
      const model = buildRunModel(parseTraceText(text));
      const own = monitorRun(model, resolveMonitorConfig(undefined));
      assert.ok(own.some((alert) => alert.signal === 'verbatimSpread'), 'the fixture must spread verbatim');
      assert.deepEqual((await analyzeRun(model, { config: defaultConfig() })).alerts, own);
    });
  }
});
