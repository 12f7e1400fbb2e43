// `agent-immune lock`: pins the skill folders and always-on prompt files into the lockfile and records the re-pins;
// writes nothing (exit 1) when a path in the scope cannot be pinned, naming each one, nor (exit 2) where the adopted
// lockfile is gone, unless --anew. `--restore` puts back a deleted lockfile from git instead, so the files are checked
// against what was pinned rather than pinned as they are.
import { ignoredByGitText, lockfileIgnoredText, lockMissingText, rootSkillMarkersText, lockRefusedText, lockRestoredText } from '../../core/integrity/messages';
import { auditWriter } from '../../node/integrity/auditLog';
import { loadAuditKey } from '../../node/integrity/auditKey';
import { lockWorkspace, restoreLockfile, type LockResult } from '../../node/integrity/lock';
import { lockfileFlag, workspaceRoot } from '../args';
import { loadCheckedConfig } from '../../node/config';
import { ExitCode, parseFlags, UsageError, type Command } from '../command';

export const lockCommand: Command = {
  name: 'lock',
  summary: 'pin SKILL.md folders and prompt files in the lockfile (agent-immune.lock)',
  usage: `Usage: agent-immune lock [--root DIR] [options]

Hashes every skill folder (a folder holding SKILL.md, with all its files) and every always-on
prompt file (AGENTS.md, CLAUDE.md, *.instructions.md, ...) and writes the lockfile: sorted keys,
POSIX paths, no timestamps, so it diffs and merges cleanly. Changed pins are recorded in
.agent-immune/audit.ndjson. A path in the scope that cannot be pinned (a FIFO, a folder symlink,
a symlink out of the workspace, an unreadable file, a file that keeps changing) is never left
out silently: nothing is written and each one is named. Format: docs/lockfile.md.

A lockfile the project adopted (git tracks it, or its config sets integrity.strict) that was deleted
(verify reports lockfile-missing) is not re-pinned: that would trust whatever is there now, the
change the deletion hid included. Nothing is written and one line says so. --restore writes back
the copy git tracks (the index's, else HEAD's) byte for byte, and "agent-immune verify" then shows
what changed since it was pinned; --anew pins the files as they are (the editor's Pin Anyway).

Options:
  --root DIR         workspace root (default: the workspace the current folder is in: the
                     nearest folder at or above it with agent-immune.lock or the config)
  --lockfile FILE    lockfile path relative to the root (default: integrity.lockfile or agent-immune.lock)
  --restore          put back a deleted lockfile as git tracks it instead of pinning
  --anew             pin even where the adopted lockfile is gone, trusting the files as they are
  --json             print what was done as JSON
  --no-audit         do not append to the audit trail
  -h, --help         show this help

Exit codes: 0 written, 1 not written (a path cannot be pinned), 2 bad input or usage, or not written
because the adopted lockfile is gone (without --anew; with --json the refusal is also on stdout); with
--restore: a lockfile is there, git has no copy, or its copy is not a valid lockfile.`,

  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      root: { type: 'string' },
      lockfile: { type: 'string' },
      restore: { type: 'boolean' },
      anew: { type: 'boolean' },
      json: { type: 'boolean' },
      'no-audit': { type: 'boolean' },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    if (values.restore && values.anew) throw new UsageError('--restore and --anew exclude each other: restore the lockfile, or pin anew');
    const root = await workspaceRoot(io.cwd, values.root, { flag: '--root', hint: 'give the workspace folder whose skills to pin' }, (line) => io.stderr(`agent-immune lock: ${line}\n`));
    const lockfile = lockfileFlag(root, values.lockfile);
    await loadCheckedConfig(root, undefined, (line) => io.stderr(`agent-immune lock: ${line}\n`));
    const writer = values['no-audit'] ? undefined : auditWriter('agent-immune-cli', (await loadAuditKey(io.env, root))?.key);
    if (values.restore) {
      const restored = await restoreLockfile(root, writer, { lockfile });
      if (values.json) io.stdout(JSON.stringify({ schema: 'agent-immune/lock-restore/v1', ...restored }, null, 2) + '\n');
      else io.stdout(`${lockRestoredText(restored)}\n`);
      return ExitCode.Ok;
    }
    const result = await lockWorkspace(root, writer, { lockfile }, { anew: values.anew });
    const gone = result.findings.find((f) => f.code === 'lockfile-missing');
    if (values.json) io.stdout(JSON.stringify({ schema: 'agent-immune/lock/v1', ...result }, null, 2) + '\n');
    else if (!gone) io.stdout(lockText(result));
    if (gone) {
      io.stderr(`agent-immune lock: ${lockMissingText(gone)}\n`);
      return ExitCode.BadInput;
    }
    return result.written ? ExitCode.Ok : ExitCode.Findings;
  },
};

/** The text of a lock that wrote the lockfile, or wrote nothing because paths in the scope cannot be pinned. */
function lockText(result: LockResult): string {
  if (!result.written) return lockRefusedText(result.lockfile, result.findings);
  const repinned = result.repinned.length > 0 ? `Re-pinned (recorded in the audit trail): ${result.repinned.join(', ')}\n` : '';
  const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const others = result.files - result.skillFiles;
  const parts = [result.skills > 0 ? `${result.skillFiles} in ${counted(result.skills, 'skill folder')}` : '', others > 0 ? `${others} ${result.skills > 0 ? 'other ' : ''}prompt and config file(s)` : ''];
  const notInClones = (result.ignoredByGit.length > 0 ? `${ignoredByGitText(result.ignoredByGit)}\n` : '') + (result.lockfileIgnored ? `${lockfileIgnoredText(result.lockfile)}\n` : '');
  const rootMarkers = result.rootSkillMarkers.length > 0 ? `${rootSkillMarkersText(result.rootSkillMarkers)}\n` : '';
  return `Pinned ${counted(result.files, 'file')} to ${result.lockfile}: ${parts.filter(Boolean).join(', ') || 'nothing in the scope'}.\n${repinned}${notInClones}${rootMarkers}`;
}
