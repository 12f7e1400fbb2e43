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
]);

/** Claude Code's slash commands: a prompt each time one is run (the monitor reads them; harden does not, no system prompt). */
export const SLASH_COMMAND_GLOB = '**/.claude/commands/**/*.md';

/**
 * Files that configure an agent rather than prompt it every session: hooks that run commands (`.claude/settings.json`),
 * the MCP servers it starts, its slash commands. A pull request adding one changes what the agent does, so the
 * integrity check pins them; harden does not read them as prompts. Not `settings.local.json`: Claude Code writes it
 * each time a user allows a tool, so a pin would drift all day.
 */
export const AGENT_CONFIG_GLOBS: readonly string[] = Object.freeze(['**/.claude/settings.json', SLASH_COMMAND_GLOB, '**/.mcp.json', '**/.cursor/mcp.json']);
