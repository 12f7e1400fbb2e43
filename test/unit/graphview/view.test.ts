// The page's pure parts: per-round view model, search, text segmentation, diagnostics findings, the panel shell.
import * as assert from 'node:assert/strict';
import { panelCsp, panelHtml } from '../../../src/extension/analyze/panelHtml';
import { traceFindings } from '../../../src/core/guard/findings';
import { hiddenMarker, outputSegments, revealHidden } from '../../../src/webview/text';
import { buildViewModel, countsAt, edgeKey, matchAgents, pathEdgeActive } from '../../../src/webview/viewModel';
import { handPayload } from './fixture';

describe('view model', () => {
  it('replays categories round by round and lights path edges once both ends are flagged', () => {
    const model = buildViewModel(handPayload());
    assert.deepEqual(countsAt(model, 0), { attacker: 1, infected: 0, benign: 3 });
    assert.deepEqual(countsAt(model, 2), { attacker: 1, infected: 2, benign: 1 });
    assert.equal(pathEdgeActive(model, edgeKey('m', 'a'), 0), false);
    assert.equal(pathEdgeActive(model, edgeKey('m', 'a'), 1), true);
    assert.equal(pathEdgeActive(model, edgeKey('a', 'b'), 1), false);
    assert.equal(pathEdgeActive(model, edgeKey('a', 'b'), 2), true);
    assert.equal(pathEdgeActive(model, edgeKey('b', 'c'), 2), false, 'not on an infection path');
    assert.deepEqual(model.firstFlagged, [0, 1, 2, Infinity]);
  });

  it('searches by id and by category in the shown round', () => {
    const model = buildViewModel(handPayload());
    assert.deepEqual(matchAgents(model, 'M', 'all', 2).map((i) => model.ids[i]), ['m']);
    assert.deepEqual(matchAgents(model, '', 'infected', 1).map((i) => model.ids[i]), ['a']);
    assert.deepEqual(matchAgents(model, '', 'benign', 2).map((i) => model.ids[i]), ['c']);
  });
});

describe('output text segments', () => {
  it('marks removed spans and reveals bidi and zero-width characters', () => {
    const text = 'keep \u202Eevil\u202C drop\u200Bme tail';
    const segments = outputSegments({ text, truncated: 0, removed: [{ start: 12, end: 20, reason: 'persuasion' }] });
    assert.equal(segments.map((s) => s.text).join(''), `keep ${hiddenMarker('\u202E')}evil${hiddenMarker('\u202C')} drop${hiddenMarker('\u200B')}me tail`);
    assert.deepEqual(segments.filter((s) => s.kind === 'hidden').map((s) => s.text), ['⟨U+202E⟩', '⟨U+202C⟩', '⟨U+200B⟩']);
    assert.ok(segments.some((s) => s.kind === 'removed' && s.reason === 'persuasion'));
    assert.ok(!segments.some((s) => /[\u202E\u202C\u200B]/.test(s.text)));
  });

  it('ignores spans outside the text', () => {
    const segments = outputSegments({ text: 'abc', truncated: 0, removed: [{ start: 10, end: 20, reason: 'llm' }] });
    assert.deepEqual(segments, revealHidden('abc'));
  });
});

describe('trace findings', () => {
  it('lists each attacker and infected output line with round and scores', () => {
    const findings = traceFindings(handPayload());
    assert.deepEqual(findings.map((f) => [f.line, f.agent, f.round, f.code]), [
      [2, 'm', 0, 'trace-attacker-output'],
      [6, 'm', 1, 'trace-attacker-output'],
      [7, 'a', 1, 'trace-infected-output'],
      [10, 'm', 2, 'trace-attacker-output'],
      [11, 'a', 2, 'trace-infected-output'],
      [12, 'b', 2, 'trace-infected-output'],
    ]);
    assert.equal(findings[2].pInf, 0.8);
  });
});

describe('panel shell', () => {
  it('allows only the nonce script and the webview origin, nothing remote or inline-unsafe', () => {
    const csp = panelCsp('https://webview.test', 'n0nce');
    assert.match(csp, /^default-src 'none'; script-src 'nonce-n0nce'; style-src https:\/\/webview\.test;/);
    assert.ok(!csp.includes('unsafe'));
    const html = panelHtml({ cspSource: 'https://webview.test', nonce: 'n0nce', scriptUri: 'https://webview.test/dist/webview.js', styleUri: 'https://webview.test/media/graphview.css', title: '<b>x</b>' });
    assert.match(html, /<script nonce="n0nce" src="https:\/\/webview\.test\/dist\/webview\.js"><\/script>/);
    assert.ok(html.includes('&#60;b&#62;x&#60;/b&#62;'));
  });
});
