// The always-on prompt files: files an agent or a coding assistant loads into its context by itself, every session.
// Described once: the integrity check pins them, harden reads them as prompt files, the editor activates on them.

/** Globs of the always-on prompt files (a skill folder's files are pinned with the skill, found by its SKILL.md). */
export const ALWAYS_ON_PROMPT_GLOBS: readonly string[] = Object.freeze([
  '**/AGENTS.md',
  '**/CLAUDE.md',
  '**/GEMINI.md',
  '**/.github/copilot-instructions.md',
  '**/*.instructions.md',
  '**/*.prompt.md',
  '**/*.chatmode.md',
  '**/*.agent.md',
  '**/.github/agents/*.md',
  '**/.claude/agents/*.md',
  '**/.cursor/rules/**/*.mdc',
  '**/.cursorrules',
  '**/.windsurfrules',
  '**/.clinerules',
  '**/.clinerules/**/*.md',
  '**/CLAUDE.local.md',
  '**/.windsurf/rules/**/*.md',
  '**/.roo/rules/**/*.md',
  '**/.kiro/steering/**/*.md',
  '**/.github/workflows/*.md',
  // Codex's override of AGENTS.md, Qwen Code, Charm Crush, Zed, JetBrains Junie, Amazon Q Developer, Kilo Code,
  // Continue, Augment and Trae rules: loaded into every session.
  '**/AGENTS.override.md',
  '**/QWEN.md',
  '**/CRUSH.md',
  '**/CRUSH.local.md',
  '**/Crush.md',
  '**/Crush.local.md',
  '**/crush.md',
  '**/crush.local.md',
  '**/.rules',
  '**/.junie/guidelines.md',
  '**/AmazonQ.md',
  '**/.amazonq/rules/**/*.md',
  '**/.kilocode/rules/**/*.md',
  '**/.continue/rules/**/*.md',
  // Continue also loads its prompts folder as rules (a prompt not marked `invokable` joins the system message), the
  // workspace's `.continuerules`, and `AGENT.md` beside AGENTS.md and CLAUDE.md (core/config/markdown/loadMarkdownRules.ts).
  '**/.continue/prompts/**/*.md',
  '**/.continuerules',
  '**/AGENT.md',
  '**/.augment-guidelines',
  '**/.augment/guidelines.md',
  '**/.augment/rules/**/*.md',
  '**/.trae/rules/**/*.md',
  // OpenCode's agents (each file's body is an agent's system prompt) and Claude Code's output styles (part of the
  // system prompt while selected).
  '**/.opencode/agent/**/*.md',
  '**/.opencode/agents/**/*.md',
  '**/.claude/output-styles/*.md',
]);

/**
 * Custom commands and workflows the user runs by name (Claude Code's slash commands, and those of OpenCode, Cursor,
 * Windsurf, Gemini CLI, Kilo Code, Augment and Qwen Code): a prompt each time one is run. The monitor reads them and the
 * integrity check pins them; harden does not (no system prompt).
 */
export const SLASH_COMMAND_GLOBS: readonly string[] = Object.freeze([
  '**/.claude/commands/**/*.md',
  '**/.opencode/command/**/*.md',
  '**/.opencode/commands/**/*.md',
  '**/.cursor/commands/**/*.md',
  '**/.windsurf/workflows/**/*.md',
  '**/.gemini/commands/**/*.toml',
  '**/.kilocode/workflows/**/*.md',
  '**/.augment/commands/**/*.md',
  '**/.qwen/commands/**/*.md',
  '**/.qwen/commands/**/*.toml',
  // Continue's legacy `.prompt` files, run by name as slash commands; the review agents and checks its CLI runs on a
  // pull request (`cn review`, extensions/cli/src/commands/review/resolveReviews.ts).
  '**/.continue/prompts/**/*.prompt',
  '**/.continue/agents/**/*.md',
  '**/.continue/checks/**/*.md',
]);

/**
 * A Claude Code plugin is a folder holding this manifest. Claude Code loads the Markdown under its `commands/` (slash
 * commands) and `agents/` (subagents, each a system prompt) folders, and runs the commands its `hooks/hooks.json` names.
 */
export const PLUGIN_MANIFEST = '.claude-plugin/plugin.json';

/** A plugin's subagents, from its folder: each a system prompt, as `.claude/agents/*.md` is (harden reads them). */
export const PLUGIN_SUBAGENT_FOLDER = 'agents';
/** A plugin's prompt files, from its folder: slash commands and subagents, at any depth. */
export const PLUGIN_PROMPT_FOLDERS: readonly string[] = Object.freeze(['commands', PLUGIN_SUBAGENT_FOLDER]);
/** The name of a plugin's prompt file: Markdown. */
export const PLUGIN_PROMPT_FILE = /\.md$/i;

/** A plugin's hooks, from its folder: commands Claude Code runs on its events (pinned with the plugin's prompts). */
export const PLUGIN_HOOKS = 'hooks/hooks.json';

/** The folder of the plugin whose manifest is at `manifest` (a POSIX path from the root; '' for the root's own), or undefined for another path. */
export function pluginFolderOf(manifest: string): string | undefined {
  if (manifest === PLUGIN_MANIFEST) return '';
  return manifest.endsWith(`/${PLUGIN_MANIFEST}`) ? manifest.slice(0, -PLUGIN_MANIFEST.length - 1) : undefined;
}

/**
 * The folders (POSIX paths from the root, '' for the root) that would make `file` a plugin's prompt file if they held a
 * plugin manifest: a Markdown file under a `commands/` or `agents/` folder (one of `within`), the folder above that one.
 */
export function pluginFoldersAbove(file: string, within: readonly string[] = PLUGIN_PROMPT_FOLDERS): string[] {
  if (!PLUGIN_PROMPT_FILE.test(file)) return [];
  const folders: string[] = [];
  for (const folder of within) {
    for (let at = file.indexOf(`${folder}/`); at >= 0; at = file.indexOf(`${folder}/`, at + 1)) {
      if (at === 0) folders.push('');
      else if (file[at - 1] === '/') folders.push(file.slice(0, at - 1));
    }
  }
  return folders;
}

/** The folders that would make `file` one a plugin loads (a prompt file of it, or its hooks) if they held a manifest. */
export function pluginFoldersOf(file: string): string[] {
  if (file === PLUGIN_HOOKS) return [''];
  if (file.endsWith(`/${PLUGIN_HOOKS}`)) return [file.slice(0, -PLUGIN_HOOKS.length - 1)];
  return pluginFoldersAbove(file);
}

/** Whether `file` (a POSIX path from the root) is loaded by one of `plugins` (plugin folders, '' for the root): a prompt file of it, or its hooks. */
export function isPluginFile(file: string, plugins: ReadonlySet<string>): boolean {
  return plugins.size > 0 && pluginFoldersOf(file).some((folder) => plugins.has(folder));
}

/**
 * Files that configure an agent rather than prompt it every session: hooks that run commands (`.claude/settings.json`),
 * the MCP servers it starts, its slash commands, a plugin's manifest (with it, the plugin's prompts and hooks). A pull
 * request adding one changes what the agent does, so the integrity check pins them; harden does not read them as prompts. Not `settings.local.json`: Claude Code writes it
 * each time a user allows a tool, so a pin would drift all day.
 */
export const AGENT_CONFIG_GLOBS: readonly string[] = Object.freeze([
  '**/.claude/settings.json',
  ...SLASH_COMMAND_GLOBS,
  '**/.mcp.json',
  '**/.cursor/mcp.json',
  `**/${PLUGIN_MANIFEST}`,
  // Continue's workspace agents, configs and rule blocks written as YAML, and the MCP servers it starts.
  '**/.continue/**/*.{yaml,yml}',
  '**/.continue/mcpServers/**/*.json',
]);
