// A synthetic repository for the hardening speed figure: files of every kind harden reads, mostly ordinary code,
// some agent modules with prompts, in nested folders, written once to a temp folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const PY_PLAIN = (i: number) => `"""Module ${i}: data helpers."""
import json
from dataclasses import dataclass


@dataclass
class Record${i}:
    name: str
    value: float = 0.0

    def describe(self) -> str:
        return f"{self.name}: {self.value:.2f}"


def load_${i}(path: str) -> list[Record${i}]:
    with open(path) as handle:
        rows = json.load(handle)
    out = []
    for row in rows:
        if row.get("skip"):
            continue
        out.append(Record${i}(name=row["name"], value=float(row.get("value", 0))))
    return sorted(out, key=lambda r: (r.value, r.name))


def summarise_${i}(records):
    total = sum(r.value for r in records)
    return {"count": len(records), "total": total, "mean": total / max(1, len(records))}


def run_${i}(task, messages=None):
    """Runs one task and logs its messages (ordinary code that mentions run, task, messages and content)."""
    content = {"task": task, "messages": messages or []}
    print(f"Running {task} with {len(content['messages'])} message(s)")
    return content
`.repeat(2);

const PY_AGENT = (i: number) => `from openai import OpenAI
from .prompts_${i} import PLANNER_${i}

client = OpenAI()

WRITER_${i} = """You are writer ${i}. Write a short report from the plan you are given.
Keep it under 200 words."""


def plan(goal: str) -> str:
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "system", "content": PLANNER_${i}}, {"role": "user", "content": goal}])
    return reply.choices[0].message.content


def write(goal: str) -> str:
    steps = plan(goal)
    reply = client.chat.completions.create(model="gpt-4o", messages=[{"role": "system", "content": WRITER_${i}}, {"role": "user", "content": f"Plan:\\n{steps}"}])
    return reply.choices[0].message.content
`;

const TS_PLAIN = (i: number) => `// Module ${i}: view helpers.
import { format } from './format';

export interface Row${i} {
  id: string;
  label: string;
  count: number;
}

export function render${i}(rows: Row${i}[]): string {
  return rows
    .filter((row) => row.count > 0)
    .map((row) => \`\${row.label} (\${format(row.count)})\`)
    .join('\\n');
}

export class Store${i} {
  private readonly items = new Map<string, Row${i}>();
  add(row: Row${i}): void {
    this.items.set(row.id, { ...row, label: row.label.trim() });
  }
  get size(): number {
    return this.items.size;
  }
  run(input: string): { content: string; messages: string[] } {
    return { content: input.trim(), messages: [\`ran \${input}\`] };
  }
}
`.repeat(2);

const TS_AGENT = (i: number) => `import { Agent, run } from '@openai/agents';

export const researcher${i} = new Agent({ name: 'researcher ${i}', instructions: 'You research a topic and list five facts with sources.' });
export const writer${i} = new Agent({ name: 'writer ${i}', instructions: \`You write a paragraph from the facts you are given.\` });

export async function pipeline${i}(topic: string) {
  const facts = await run(researcher${i}, topic);
  return run(writer${i}, \`Facts:\\n\${facts.finalOutput}\`);
}
`;

/** Writes `count` files under `dir` (1 in 20 an agent module) and returns how many bytes it wrote. */
export function writeSyntheticRepo(dir: string, count: number): number {
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, `pkg${i % 50}`, `sub${i % 7}`);
    mkdirSync(folder, { recursive: true });
    const kind = i % 10;
    let name: string;
    let text: string;
    if (kind < 4) {
      name = `mod_${i}.py`;
      text = i % 20 === 0 ? PY_AGENT(i) : PY_PLAIN(i);
      if (i % 20 === 0) writeFileSync(path.join(folder, `prompts_${i}.py`), `PLANNER_${i} = "You are planner ${i}. Break the goal into steps."\n`);
    } else if (kind < 8) {
      name = `view${i}.ts`;
      text = i % 20 === 1 ? TS_AGENT(i) : TS_PLAIN(i);
    } else if (kind === 8) {
      name = i % 40 === 8 ? 'AGENTS.md' : `notes${i}.md`;
      text = `# Notes ${i}\n\nThis folder holds module ${i}. Run the tests before you commit.\n`;
    } else {
      name = `config${i}.yaml`;
      text = i % 30 === 9 ? `agent:\n  role: Analyst ${i}\n  goal: Find trends\n  backstory: You have analysed markets for years.\n` : `name: service-${i}\nreplicas: 2\nports:\n  - 8080\n`;
    }
    writeFileSync(path.join(folder, name), text);
    bytes += text.length;
  }
  return bytes;
}
