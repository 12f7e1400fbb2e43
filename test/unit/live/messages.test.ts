// What a row of the Live Runs view and the status bar say about a run: the verdict the user scans for, and no empty
// tooltip lines for what a run does not have.
import * as assert from 'node:assert/strict';
import { liveNotice } from '../../../src/core/live/messages';
import type { RunSummary } from '../../../src/core/live/runs';

const RUN: RunSummary = { id: 'conv-1', traceId: 't1', state: 'open', spans: 9, rounds: 3, agents: 4, attackers: [], infected: [], alerts: 0, updatedAt: 0 };

describe('live wording', () => {
  it('a row names the verdict: waiting, no attacker, counts, or why it cannot be analysed', () => {
    assert.equal(liveNotice.rowDescription({ ...RUN, rounds: 0 }), 'live · waiting for a closed round · 4 agents · 0 rounds');
    assert.equal(liveNotice.rowDescription(RUN), 'live · no attacker · 4 agents · 3 rounds');
    assert.equal(liveNotice.rowDescription({ ...RUN, state: 'closed', attackers: ['a'], infected: ['b', 'c'] }), 'closed · ▲ 1 ◆ 2 · 4 agents · 3 rounds');
    assert.equal(liveNotice.rowDescription({ ...RUN, attackers: ['a'], error: 'bad span' }), 'live · cannot be analysed yet · 4 agents · 3 rounds');
  });

  it('a tooltip lists attackers and infected agents only when there are some', () => {
    assert.equal(liveNotice.rowTooltip(RUN), 'Run conv-1 (trace t1), receiving spans\n9 spans, 3 rounds decided, 4 agents, 0 propagation alerts');
    assert.match(liveNotice.rowTooltip({ ...RUN, infected: ['b', 'c'] }), /\nInfected: b, c$/);
  });

  it('the status bar counts open and listed runs once there is one', () => {
    const source = { url: 'http://127.0.0.1:4318', server: {} };
    assert.equal(liveNotice.statusText(source, 0, 0), '$(broadcast) Live 127.0.0.1:4318');
    assert.equal(liveNotice.statusText(source, 1, 3), '$(broadcast) Live 127.0.0.1:4318 · 1/3');
    assert.match(liveNotice.viewMessage({ url: 'http://h:1' }, 0), /^Watching http:\/\/h:1\. No run yet/);
  });
});
