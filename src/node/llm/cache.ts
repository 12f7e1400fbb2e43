// On-disk cache of LLM replies keyed by (model, prompt hash), so re-analysing a trace costs nothing.
// Lives in .agent-immune/cache/llm/ (git-ignored); a broken entry is a miss, never an error.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import * as path from 'node:path';

/** Default cache folder under a workspace or working directory. */
export function defaultCacheDir(root: string): string {
  return path.join(root, '.agent-immune', 'cache', 'llm');
}

/** The sha256 key of a request: model, purpose, sample index and the exact prompt. */
export function cacheKey(parts: { model: string; kind: string; sample: number; prompt: unknown }): string {
  return createHash('sha256').update(JSON.stringify([parts.model, parts.kind, parts.sample, parts.prompt])).digest('hex');
}

/** Reply cache: one small JSON file per key. */
export class LlmCache {
  constructor(readonly dir: string) {}

  /** The cached reply content, or undefined on a miss or an unreadable entry. */
  async get(key: string): Promise<string | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.file(key), 'utf8')) as { content?: unknown };
      return typeof entry.content === 'string' ? entry.content : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a reply atomically; a failure to write only costs a future call. */
  async set(key: string, model: string, content: string): Promise<void> {
    const file = this.file(key);
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(temp, JSON.stringify({ model, content }), 'utf8');
      await rename(temp, file);
    } catch {
      // a read-only or full disk only disables the cache
    }
  }

  private file(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
