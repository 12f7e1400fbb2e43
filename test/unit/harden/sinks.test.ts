// The sink table against its fixtures and its documentation: every sink has a fixture written from its framework's
// API, every label there is found, nothing unlabelled is, and docs/hardening.md lists exactly the table.
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { emptyScore, markerLabels, rates, scoreFile } from '../../../bench/lib/hardenLabels';
import { resolveHardenConfig } from '../../../src/core/harden/config';
import { SINK_RULES, SYSTEM_KEYWORDS } from '../../../src/core/harden/sinks';
import { hardenPaths } from '../../../src/node/harden/scan';

const fixtures = path.resolve(__dirname, '../../fixtures/harden');
const docs = path.resolve(__dirname, '../../../docs/hardening.md');
/** A label comment's text (`# expect-prompt`, `// expect-delegation: x`, inside a notebook's JSON too): the comment stays, empty, so lines stay put. */
const MARKER_LINE = /(?<=(?:#|\/\/)\s*)expect-(?:prompt|delegation)[^\n"\\]*/g;

/** The Markdown table of the sink table, as docs/hardening.md must show it. */
function sinkTable(): string {
  const rows = SINK_RULES.map((r) => `| ${r.framework} | ${r.languages.map((l) => (l === 'python' ? 'Python' : 'TS/JS')).join(', ')} | ${r.form.replace(/\|/g, '\\|')} | ${r.role} | [${r.fixture}](../test/fixtures/harden/sinks/${r.fixture}) |`);
  return ['| Framework | Language | Sink | Role | Fixture |', '|---|---|---|---|---|', ...rows].join('\n');
}

describe('harden sinks', () => {
  it('has a fixture with labels for every sink', () => {
    for (const rule of SINK_RULES) {
      const file = path.join(fixtures, 'sinks', rule.fixture);
      assert.ok(existsSync(file), `${rule.framework}: ${rule.form} names a missing fixture ${rule.fixture}`);
      const labels = markerLabels(readFileSync(file, 'utf8'));
      assert.ok(labels.prompts.length + labels.delegations.length > 0, `${rule.fixture} has no labels`);
    }
  });

  it('finds every labelled prompt and delegation in the fixtures, and nothing else (read without their label comments)', async () => {
    // The labels are comments that say "prompt": a fixture is read without them, as the real file would be.
    const unlabelled = mkdtempSync(path.join(tmpdir(), 'ai-sinks-'));
    cpSync(fixtures, unlabelled, { recursive: true });
    const labelled = new Map<string, string>();
    for (const file of readdirSync(unlabelled, { recursive: true, encoding: 'utf8' })) {
      const full = path.join(unlabelled, file);
      if (!statSync(full).isFile()) continue;
      const text = readFileSync(full, 'utf8');
      labelled.set(file.split(path.sep).join('/'), text);
      writeFileSync(full, text.replace(MARKER_LINE, ''));
    }
    const run = await hardenPaths(unlabelled, [unlabelled], async () => resolveHardenConfig(undefined), 'check');
    rmSync(unlabelled, { recursive: true, force: true });
    assert.deepEqual(run.skipped, []);
    const score = emptyScore();
    for (const file of run.files) scoreFile(score, file.path, file.text, file.analysis, markerLabels(labelled.get(file.path) ?? ''));
    assert.deepEqual({ misses: score.misses, extras: score.extras }, { misses: [], extras: [] });
    assert.deepEqual(rates(score), { promptRecall: 1, delegationRecall: 1, precision: 1 });
    assert.ok(score.prompts >= SINK_RULES.filter((r) => r.role === 'system').length, 'fewer labelled prompts than system sinks');
  });

  it('is documented in docs/hardening.md exactly as the table defines it', () => {
    const text = readFileSync(docs, 'utf8');
    assert.ok(text.includes(sinkTable()), `docs/hardening.md must contain this table (regenerate it from SINK_RULES):\n${sinkTable()}`);
    for (const keyword of SYSTEM_KEYWORDS) assert.ok(text.includes(`\`${keyword}\``), `docs/hardening.md does not list the keyword ${keyword}`);
  });
});
