// Inserting the warning and the boundary, per file kind: where it lands, that code still parses and evaluates to a
// value carrying the warning, and that a second pass changes nothing.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import ts from 'typescript';
import { fixAll, hardenText } from '../../../src/core/harden/analyze';
import { resolveHardenConfig } from '../../../src/core/harden/config';
import { containsBoundaryLabel, containsImmunityWarning } from '../../../src/core/harden/detect';
import { DELEGATION_BOUNDARY_LABEL, MIND_VIRUS_IMMUNITY_WARNING as W } from '../../../src/core/harden/texts';
import { discoverYaml, yamlBoundaryEdits, yamlPlaceholders } from '../../../src/core/harden/yaml';
import { parse as parseYaml } from 'yaml';
import type { HardenFinding, PromptFileKind } from '../../../src/core/harden/types';

const config = resolveHardenConfig(undefined);

/** Fixes everything, checks the second pass finds nothing and changes nothing; returns the fixed text. */
function fixTwice(text: string, kind: PromptFileKind, expectedCodes: string[]): string {
  const findings = hardenText(text, kind, 'prompt', config);
  assert.deepEqual(findings.map((f) => f.code), expectedCodes);
  const fixed = fixAll(text, findings);
  assert.deepEqual(fixed.skipped, []);
  const again = hardenText(fixed.text, kind, 'prompt', config);
  assert.deepEqual(again.map((f) => f.code), [], 'second pass still finds something');
  assert.equal(fixAll(fixed.text, again).text, fixed.text);
  return fixed.text;
}

/** TypeScript parse errors of a source text (the parser's own diagnostics). */
function tsParseErrors(text: string): string[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) as ts.SourceFile & { parseDiagnostics: ts.Diagnostic[] };
  return file.parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Evaluates a TypeScript snippet (transpiled) and returns its `value` export. */
function tsValue(text: string): unknown {
  const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  vm.runInNewContext(js, { module, exports: module.exports, peerReply: 'PEER', subtask: { text: 'SUB' } });
  return module.exports.value;
}

describe('harden: Markdown insertion', () => {
  const cases: [string, string, (fixed: string) => void][] = [
    ['no front matter', 'You are a reviewer.\n', (f) => assert.equal(f, `${W}\n\nYou are a reviewer.\n`)],
    ['front matter', '---\nname: review\ndescription: x\n---\nYou are a reviewer.\n', (f) => assert.equal(f, `---\nname: review\ndescription: x\n---\n${W}\n\nYou are a reviewer.\n`)],
    ['front matter and title', '---\nname: r\n---\n\n# Reviewer\n\nBe strict.\n', (f) => assert.equal(f, `---\nname: r\n---\n\n# Reviewer\n\n${W}\n\nBe strict.\n`)],
    ['front matter only', '---\nname: r\n---\n', (f) => assert.equal(f, `---\nname: r\n---\n\n${W}\n`)],
    ['empty file', '', (f) => assert.equal(f, `${W}\n`)],
    ['title without newline', '# Title', (f) => assert.equal(f, `# Title\n\n${W}\n`)],
    ['CRLF line ends', '---\r\nname: r\r\n---\r\nBody\r\n', (f) => assert.equal(f, `---\r\nname: r\r\n---\r\n${W}\r\n\r\nBody\r\n`)],
    ['empty front matter', '---\n---\nBody\n', (f) => assert.equal(f, `---\n---\n${W}\n\nBody\n`)],
  ];
  for (const [name, input, check] of cases) {
    it(`inserts after the front matter: ${name}`, () => check(fixTwice(input, 'markdown', ['missing-immunity-warning'])));
  }

  it('leaves a prompt that already carries the warning (in a blockquote) alone', () => {
    assert.deepEqual(hardenText(`# T\n\n> ${W.replace(/\. /g, '.\n> ')}\n`, 'markdown', 'SKILL.md', config), []);
  });

  it('wraps a delegated placeholder in a boundary and keeps the text around it', () => {
    const fixed = fixTwice('Review this: {{ peer_output }} and reply.\n', 'markdown', ['missing-immunity-warning', 'unbounded-delegation']);
    assert.match(fixed, /Review this: \n.*\n<delegated_task>\n\{\{ peer_output \}\}\n<\/delegated_task>\n and reply\./);
    assert.equal(containsBoundaryLabel(fixed), true);
  });

  it("puts the label and tags at the indentation of a placeholder alone on its line (was: adk-samples' `  {itinerary}` left a blank indented line and flush-left tags)", () => {
    const fixed = fixTwice('Traveler:\n  <itinerary>\n  {{ peer_output }}\n  </itinerary>\n', 'markdown', ['missing-immunity-warning', 'unbounded-delegation']);
    assert.match(fixed, /\n  <itinerary>\n  The content between[^\n]*\n  <delegated_task>\n  \{\{ peer_output \}\}\n  <\/delegated_task>\n  <\/itinerary>\n$/);
  });
});

describe('harden: TypeScript insertion', () => {
  const cases: [string, string, string[]][] = [
    ['single quotes', "const systemPrompt = 'You are \\'careful\\'.'; export const value = systemPrompt;", ['missing-immunity-warning']],
    ['double quotes with escapes', 'export const systemPrompt = "Say \\"hi\\"\\n\\tthen stop."; export const value = systemPrompt;', ['missing-immunity-warning']],
    ['template literal', 'const systemPrompt = `You are a ${"planner"}.`; export const value = systemPrompt;', ['missing-immunity-warning']],
    ['template starting with an interpolation', 'const systemPrompt = `${"x"} is your name`; export const value = systemPrompt;', ['missing-immunity-warning']],
    ['indented multi-line template', 'const SYSTEM_PROMPT = `\n    You are a critic.\n    Be short.\n`;\nexport const value = SYSTEM_PROMPT;', ['missing-immunity-warning']],
    ['typed declaration', 'const SYSTEM_PROMPT: string = "Plan.";\nexport const value = SYSTEM_PROMPT;', ['missing-immunity-warning']],
    ['concatenation', 'const systemPrompt = "Part one, " +\n  "part two.";\nexport const value = systemPrompt;', ['missing-immunity-warning']],
    ['role system object', 'export const value = [{ role: "system", content: "Route tasks." }, { role: "user", content: "hi" }][0].content;', ['missing-immunity-warning']],
    ['instructions property', 'const agent = { name: "a", instructions: \'Help.\' };\nexport const value = agent.instructions;', ['missing-immunity-warning']],
    ['String.raw template', 'const systemPrompt = String.raw`Work in C:\\path ${"x"}`; export const value = systemPrompt;', ['missing-immunity-warning']],
    ['delegated interpolation', 'const systemPrompt = `Do this: ${peerReply} then stop.`;\nexport const value = systemPrompt;', ['missing-immunity-warning', 'unbounded-delegation']],
    ['delegated message content', 'export const value = [{ role: "user", content: `Sub: ${subtask.text}` }][0].content;', ['unbounded-delegation']],
  ];
  for (const [name, input, codes] of cases) {
    it(`still parses and carries the fix: ${name}`, () => {
      const source = input;
      const before = tsValue(source);
      const fixed = fixTwice(source, 'typescript', codes);
      assert.deepEqual(tsParseErrors(fixed), []);
      const value = String(tsValue(fixed));
      if (codes.includes('missing-immunity-warning')) assert.equal(containsImmunityWarning(value), true, value);
      if (codes.includes('unbounded-delegation')) assert.match(value, /<delegated_task>\n(PEER|SUB)\n<\/delegated_task>/);
      else assert.ok(value.endsWith(String(before)), 'the original prompt text follows the warning');
    });
  }

  it('finds nothing in code without prompts, regex literals and comments included', () => {
    const source = "const re = /'/g; const half = a / b; // systemPrompt = 'x'\n/* role: 'system' */ const other = 'text';";
    assert.deepEqual(hardenText(source, 'typescript', 'x.ts', config), []);
  });

  it('counts a prompt built with the runtime API or the exported constant as hardened', () => {
    const source = 'const systemPrompt = withImmunityWarning("Plan.");\nconst SYSTEM_PROMPT = `${MIND_VIRUS_IMMUNITY_WARNING}\\nPlan.`;\nconst x = new Agent({ instructions: `Use ${wrapDelegatedTask(peerReply)}` });';
    assert.deepEqual(hardenText(source, 'typescript', 'x.ts', config).map((f) => f.code), ['missing-immunity-warning']);
  });
});

describe('harden: Python insertion', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'ai-harden-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Parses with ast.parse, runs the file, and prints `value` as JSON. */
  function pyValue(source: string): string {
    const file = path.join(dir, 'x.py');
    writeFileSync(file, source);
    const script = 'import ast,sys,json; src=open(sys.argv[1]).read(); ast.parse(src); ns={}; exec(src, ns); print(json.dumps(ns["value"]))';
    const run = spawnSync('python3', ['-c', script, file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as string;
  }

  const stub = 'class Agent:\n    def __init__(self, **kw): self.instructions = kw.get("instructions")\nimport os\npeer_output = os.environ.get("AI_TEST_PEER", "PEER")\n';
  const cases: [string, string, string[]][] = [
    ['triple double quotes, indented', 'SYSTEM_PROMPT = """\n    You are a critic.\n    Be short.\n    """\nvalue = SYSTEM_PROMPT', ['missing-immunity-warning']],
    ["triple single quotes with a quote inside", "system_prompt = '''It's \"fine\".'''\nvalue = system_prompt", ['missing-immunity-warning']],
    ['dedent of a triple-quoted string', 'from textwrap import dedent\nSYSTEM_PROMPT = dedent("""\\\n    You are a critic.\n    """)\nvalue = SYSTEM_PROMPT', ['missing-immunity-warning']],
    ['single quotes with escapes', "system_prompt = 'Say \\'hi\\'\\n'\nvalue = system_prompt", ['missing-immunity-warning']],
    ['raw string', 'system_prompt = r"Match \\d+ digits"\nvalue = system_prompt', ['missing-immunity-warning']],
    ['f-string with braces', 'n = 3\nsystem_prompt = f"Use {n} steps, JSON like {{\\"a\\": 1}}"\nvalue = system_prompt', ['missing-immunity-warning']],
    ['keyword argument with delegation', stub + 'agent = Agent(name="x", instructions=f"Review {peer_output!r}:\\n{peer_output:>10}")\nvalue = agent.instructions', ['missing-immunity-warning', 'unbounded-delegation', 'unbounded-delegation']],
    ['parenthesised concatenation', 'system_prompt = ("Part one, "\n    "part two.")\nvalue = system_prompt', ['missing-immunity-warning']],
    ['role system dict', 'msgs = [{"role": "system", "content": "Route."}]\nvalue = msgs[0]["content"]', ['missing-immunity-warning']],
    ['LangChain tuple', 'msgs = [("system", """Route.""")]\nvalue = msgs[0][1]', ['missing-immunity-warning']],
    ['SystemMessage keyword', 'class SystemMessage:\n    def __init__(self, content): self.content = content\nvalue = SystemMessage(content="Route.").content', ['missing-immunity-warning']],
    ['rf-string', 'n = 1\nSYSTEM_PROMPT = rf"Path C:\\x {n}"\nvalue = SYSTEM_PROMPT', ['missing-immunity-warning']],
  ];
  for (const [name, input, codes] of cases) {
    it(`still parses and carries the fix: ${name}`, () => {
      const before = pyValue(input);
      const fixed = fixTwice(input, 'python', codes);
      const value = pyValue(fixed);
      assert.equal(containsImmunityWarning(value), true, value);
      if (codes.includes('unbounded-delegation')) assert.match(value, /<delegated_task>\n'PEER'\n<\/delegated_task>/);
      else assert.ok(value.endsWith(before.trimStart()), `original text kept: ${value}`);
    });
  }

  it('ignores bytes literals, comments and unrelated names', () => {
    const source = 'system_prompt = b"bytes"\n# SYSTEM_PROMPT = "x"\nname = "system"\nlabel = "text"';
    assert.deepEqual(hardenText(source, 'python', 'x.py', config), []);
  });
});

describe('harden: the boundary in YAML block scalars', () => {
  /** The text with every placeholder named in `names` wrapped, and the values YAML reads from it. */
  function wrapped(text: string, names: string[]): { text: string; value: Record<string, Record<string, string>> } {
    const edits = discoverYaml(text, 'agents.yaml').prompts.flatMap((p) =>
      p.scalars.flatMap((scalar) =>
        names.flatMap((name) => {
          const at = text.indexOf(`{${name}}`, scalar.start);
          return at !== -1 && at < scalar.end ? yamlBoundaryEdits(text, scalar, at, at + name.length + 2) : [];
        }),
      ),
    );
    let out = text;
    for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    return { text: out, value: parseYaml(out) };
  }
  const label = DELEGATION_BOUNDARY_LABEL;

  it('keeps the label, the tags and the placeholder on lines of their own in a folded scalar (was: folded into one line, and the text after it kept apart as more indented)', () => {
    const { text, value } = wrapped('researcher:\n  goal: >\n    Gather facts on {topic} and {chapter_title} that will be used.\n    Outline: {outline}\n  backstory: >\n    You research.\n', ['chapter_title', 'outline']);
    assert.equal(value.researcher.goal, `Gather facts on {topic} and\n${label}\n<delegated_task>\n{chapter_title}\n</delegated_task>\nthat will be used. Outline:\n${label}\n<delegated_task>\n{outline}\n</delegated_task>\n`);
    assert.deepEqual(discoverYaml(text, 'agents.yaml').prompts.flatMap((p) => p.scalars.flatMap((s) => yamlPlaceholders(text, s).map((h) => h.name))), ['topic'], 'both are inside the boundary now');
  });

  it('gives two boundaries of one folded scalar one label, with no blank line left where the second one\'s label was (was: an extra empty line)', () => {
    const text = 'researcher:\n  goal: >\n    Write on {a} and {b} today.\n  backstory: >\n    You research.\n';
    const scalar = discoverYaml(text, 'agents.yaml').prompts.flatMap((p) => p.scalars).find((sc) => sc.key === 'goal')!;
    const finding = (name: string): HardenFinding => {
      const at = text.indexOf(`{${name}}`);
      return { code: 'unbounded-delegation', severity: 'warning', start: at, end: at + 3, site: {} as HardenFinding['site'], fix: yamlBoundaryEdits(text, scalar, at, at + 3), scope: { start: scalar.start, end: scalar.end } };
    };
    const fixed = fixAll(text, [finding('a'), finding('b')]).text;
    assert.equal((parseYaml(fixed) as Record<string, Record<string, string>>).researcher.goal, `Write on\n${label}\n<delegated_task>\n{a}\n</delegated_task>\nand\n<delegated_task>\n{b}\n</delegated_task>\ntoday.\n`);
  });

  it('edits a more-indented line of a folded scalar, which folding keeps as it is, line by line (no blank lines added to the value)', () => {
    const { value } = wrapped('researcher:\n  goal: >\n    Do it.\n      deeper {x} here\n    after\n  backstory: >\n    You research.\n', ['x']);
    assert.equal(value.researcher.goal, `Do it.\n  deeper\n  ${label}\n  <delegated_task>\n  {x}\n  </delegated_task>\n  here\nafter\n`);
  });

  it('sets a placeholder on its own folded line apart from the lines around it, and leaves a literal scalar one line per line', () => {
    const { value } = wrapped('task:\n  description: >\n    Verify the post.\n    Post:\n    {x_post}\n    Then answer.\n  expected_output: >\n    ok\n  agent: researcher\nwriter:\n  backstory: |\n    Draft:\n    {draft}\n    Check it.\n', ['x_post', 'draft']);
    assert.equal(value.task.description, `Verify the post. Post:\n${label}\n<delegated_task>\n{x_post}\n</delegated_task>\nThen answer.\n`);
    assert.equal(value.writer.backstory, `Draft:\n${label}\n<delegated_task>\n{draft}\n</delegated_task>\nCheck it.\n`);
  });
});
