// On-disk cache of LLM replies keyed by (model, prompt hash), so re-analysing a trace costs nothing.
// Lives in <root>/.agent-immune/cache/llm/ (git-ignored), read and written through the workspace file layer (a cache
// folder the repository made a symlink is never followed); a broken entry is a miss, never an error.
import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { readWorkspaceFile, writeWorkspaceFileAtomic } from '../workspaceFs';

/** The cache folder, relative to the workspace root. */
const CACHE_DIR = path.join('.agent-immune', 'cache', 'llm');

/** The largest cache entry read back. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;

/** The sha256 key of a request: who answers (endpoint and credential, hashed), model, purpose, sample index and the exact prompt. */
export function cacheKey(parts: { scope?: string; model: string; kind: string; sample: number; prompt: unknown }): string {
  return createHash('sha256').update(JSON.stringify([parts.scope ?? '', parts.model, parts.kind, parts.sample, parts.prompt])).digest('hex');
}

/** Reply cache under a workspace root: one small JSON file per key. */
export class LlmCache {
  constructor(readonly root: string) {}

  /** The cached reply content, or undefined on a miss or an unreadable entry. */
  async get(key: string): Promise<string | undefined> {
    try {
      const rootReal = await realpath(this.root);
      const entry = JSON.parse((await readWorkspaceFile(rootReal, this.file(rootReal, key), MAX_ENTRY_BYTES)).toString('utf8')) as { content?: unknown };
      return typeof entry.content === 'string' ? entry.content : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a reply atomically; a failure to write only costs a future call. */
  async set(key: string, model: string, content: string): Promise<void> {
    try {
      const rootReal = await realpath(this.root);
      await writeWorkspaceFileAtomic(rootReal, this.file(rootReal, key), JSON.stringify({ model, content }));
    } catch {
      // a read-only or full disk only disables the cache
    }
  }

  private file(rootReal: string, key: string): string {
    return path.join(rootReal, CACHE_DIR, key.slice(0, 2), `${key}.json`);
  }
}
