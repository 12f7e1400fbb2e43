// scripts/fetch-corpus.sh rebuilds a corpus kept outside the repository from its manifest: each listed file fetched at
// its commit and checked against its hash; a row that would write outside the destination is refused.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.join(__dirname, '../../../scripts/fetch-corpus.sh');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('scripts/fetch-corpus.sh', () => {
  let dir: string;
  let commit: string;
  const text = 'round 0: agent_1 says (B)\n';
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ai-corpus-'));
    // A stand-in for the remote: a repository "owner+runs" with one file, served over file://.
    const remote = path.join(dir, 'remotes', 'owner+runs');
    mkdirSync(path.join(remote, 'logs'), { recursive: true });
    writeFileSync(path.join(remote, 'logs', 'run.jsonl'), text);
    const git = (...args: string[]) => execFileSync('git', ['-C', remote, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'runs');
    commit = git('rev-parse', 'HEAD');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (rows: string[][], dest: string) => {
    const manifest = path.join(dir, `manifest-${rows.length}.tsv`);
    writeFileSync(manifest, ['repo\tcommit\tpath\tlicence\tsha256', ...rows.map((r) => r.join('\t'))].join('\n') + '\n');
    return spawnSync('bash', [SCRIPT, manifest, dest], { encoding: 'utf8', env: { ...process.env, AGENT_IMMUNE_GIT_URL: `file://${dir}/remotes/{folder}` } });
  };

  it('writes each listed file at its commit under DEST/<owner>+<name>/, and keeps it on a second run', () => {
    const dest = path.join(dir, 'corpus');
    const first = run([['owner/runs', commit, 'logs/run.jsonl', 'none', sha256(text)]], dest);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(readFileSync(path.join(dest, 'owner+runs', 'logs', 'run.jsonl'), 'utf8'), text);
    assert.match(run([['owner/runs', commit, 'logs/run.jsonl', 'none', sha256(text)]], dest).stdout, /0 written, 1 already there, 0 failed/);
  });

  it('leaves out a file whose hash differs from the manifest and exits 1', () => {
    const dest = path.join(dir, 'changed');
    const result = run([['owner/runs', commit, 'logs/run.jsonl', 'none', sha256('something else')]], dest);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /missing or changed: owner\/runs@\w{7} logs\/run\.jsonl/);
    assert.equal(existsSync(path.join(dest, 'owner+runs', 'logs', 'run.jsonl')), false);
  });

  it('refuses a row that would write outside DEST', () => {
    const dest = path.join(dir, 'hostile');
    const result = run([['owner/runs', commit, '../../escaped.txt', 'none', sha256(text)], ['../x', commit, 'a', 'none', sha256(text)]], dest);
    assert.equal(result.status, 1);
    assert.equal((result.stderr.match(/skipped: unsafe row/g) ?? []).length, 2);
    assert.equal(existsSync(path.join(dir, 'escaped.txt')), false);
  });
});
