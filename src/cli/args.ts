// Checks the files and folders a command is given before it starts, so a wrong path fails as one line that names it
// and says what to do, instead of a raw ENOENT/EISDIR from deep inside.
import { lstat, realpath, stat } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { InputError } from '../core/errors';
import { inline } from '../core/text/printable';
import { lockfilePathProblem } from '../core/integrity/scope';
import { integrityRootOf, isSkillRepository, notAProject } from '../node/integrity/root';
import { isInside } from '../node/workspaceFs';
import { UsageError } from './command';

/** What a path argument must be; `hint` says what to give instead when it is a folder (for a file) or a file. */
interface PathRole {
  /** The flag ("--root", "--config"); none for a positional argument. */
  flag?: string;
  hint?: string;
  /** The file is read more than once (a trace: its format is told, then it is read), so a pipe or device cannot be it. */
  readTwice?: boolean;
}

/** The error for a path argument that is missing or of the wrong kind (exit 2, no usage hint: the path is at fault). */
function badPath(message: string): InputError {
  return new InputError('bad-path', message);
}

/** How the message names the argument: "--root README.md", or the path alone. */
function named(role: PathRole, given: string): string {
  return role.flag ? `${role.flag} ${given}` : given;
}

async function kindOf(abs: string): Promise<'file' | 'folder' | 'other' | undefined> {
  const info = await stat(abs).catch(() => undefined);
  return info === undefined ? undefined : info.isDirectory() ? 'folder' : info.isFile() ? 'file' : 'other';
}

/** The absolute path of a file argument that must exist; an InputError naming it otherwise. */
export async function existingFile(cwd: string, given: string, role: PathRole): Promise<string> {
  const abs = path.resolve(cwd, given);
  const kind = await kindOf(abs);
  if (kind === undefined) throw badPath(`${named(role, given)}: no such file; check the path`);
  if (kind === 'folder') throw badPath(`${named(role, given)} is a folder, not a file${role.hint ? `: ${role.hint}` : ''}`);
  if (kind === 'other' && role.readTwice) throw badPath(`${named(role, given)} is a pipe or device, not a file; it is read more than once: save the input to a file and give that`);
  return abs;
}

/** The absolute path of a folder argument that must exist; an InputError naming it otherwise. */
export async function existingFolder(cwd: string, given: string, role: PathRole): Promise<string> {
  const abs = path.resolve(cwd, given);
  const kind = await kindOf(abs);
  if (kind === undefined) throw badPath(`${named(role, given)}: no such folder; check the path`);
  if (kind !== 'folder') throw badPath(`${named(role, given)} is a file, not a folder${role.hint ? `: ${role.hint}` : ''}`);
  return abs;
}

/**
 * The workspace root of an integrity command: `--root` as given, else the integrity workspace the current folder is in
 * (integrityRootOf), which `note` names when it is not the current folder.
 */
export async function workspaceRoot(cwd: string, given: string | undefined, role: PathRole, note: (line: string) => void): Promise<string> {
  if (given !== undefined) return existingFolder(cwd, given, role);
  const root = await integrityRootOf(cwd);
  if (path.resolve(root) === path.resolve(cwd)) {
    const why = await notAProject(root);
    if (why) throw new NoProjectError(`the current folder is ${why}, not a project: run this in a project folder, or name one with ${role.flag}`);
    return root;
  }
  const why = (await isSkillRepository(root)) ? 'the repository that holds the skill folder you are in' : 'the nearest folder above with agent-immune.lock or agent-immune.config.json';
  note(`project root ${inline(path.relative(cwd, root))} (${why}; --root names another)`);
  return root;
}

/** Thrown by workspaceRoot where the current folder is no project (a usage error `audit key` can do without). */
export class NoProjectError extends UsageError {}

/** The absolute path of a file or folder argument that must exist. */
export async function existingPath(cwd: string, given: string, role: PathRole): Promise<string> {
  const abs = path.resolve(cwd, given);
  if ((await kindOf(abs)) === undefined) throw badPath(`${named(role, given)}: no such file or folder; check the path`);
  return abs;
}

/**
 * The absolute path of an output file option (undefined when not given): not empty, not an existing folder, not under a
 * file (its folders are created), and none of the command's `inputs` (through links too: writing would replace them).
 */
export async function outputFile(cwd: string, given: string | undefined, role: PathRole & { flag: string }, inputs: readonly string[] = []): Promise<string | undefined> {
  if (given === undefined) return undefined;
  if (given === '') throw new UsageError(`${role.flag} needs a file name`);
  const abs = path.resolve(cwd, given);
  if ((await kindOf(abs)) === 'folder') throw badPath(`${named(role, given)} is a folder: give a file name to write`);
  for (const input of inputs) {
    if (await sameFile(input, abs)) throw badPath(`${named(role, given)} is an input file itself (${inline(path.relative(cwd, input) || input)}): writing it would replace it; write to another file`);
  }
  // A repository can commit a link where a CI step writes its report (`integrity.sarif -> /home/ci/.bashrc`): an output
  // is never written through one, nor through a linked folder on its way (linkOnTheWay).
  const linked = await linkOnTheWay(cwd, abs);
  if (linked !== undefined) {
    const shown = linked === abs ? given : path.relative(cwd, linked);
    throw badPath(`${named(role, given)}: ${inline(shown)} is a symbolic link; Agent Immune does not write through one: remove it or write elsewhere`);
  }
  for (let dir = path.dirname(abs); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const kind = await kindOf(dir);
    if (kind === 'folder') break;
    if (kind !== undefined) throw badPath(`${named(role, given)}: ${path.relative(cwd, dir) || dir} is a file, not a folder; choose another place to write`);
  }
  return abs;
}

/**
 * The output path itself when it is a link (dangling too), else the first linked folder on its way down from the
 * deepest folder it shares with `cwd` (`--root .. --sarif ../reports/x.sarif` from a subfolder passes through the
 * project's `reports`). None where that folder is the home folder or above it: the user's own links are there
 * (`~/Documents` on another drive), and the system's (/var on macOS).
 */
export async function linkOnTheWay(cwd: string, abs: string): Promise<string | undefined> {
  const isLink = (p: string) => lstat(p).then((info) => info.isSymbolicLink(), () => false);
  if (await isLink(abs)) return abs;
  let base = path.resolve(cwd);
  while (!isInside(base, abs)) base = path.dirname(base);
  if (path.dirname(base) === base || isInside(base, os.homedir())) return undefined;
  const steps = path.relative(base, path.dirname(abs)).split(path.sep).filter(Boolean);
  for (let i = 1; i <= steps.length; i++) {
    const dir = path.join(base, ...steps.slice(0, i));
    if (await isLink(dir)) return dir;
  }
  return undefined;
}

/** A --lockfile value (relative to the root): a path that leads out of the root is a usage error, not a finding. */
export function lockfileFlag(root: string, given: string | undefined): string | undefined {
  if (given !== undefined && !isInside(path.resolve(root), path.resolve(root, given))) {
    throw new UsageError(`--lockfile ${given} is outside the workspace root: give a path inside it (relative to the root)`);
  }
  const problem = given === undefined ? undefined : lockfilePathProblem(path.relative(path.resolve(root), path.resolve(root, given)));
  if (problem) throw new UsageError(`--lockfile: ${problem}`);
  return given;
}

/**
 * Refuses a report path that is an existing file inside a folder a command reads (through links too), unless it is a
 * SARIF file: in a project, every other file may be a source, a prompt, the lockfile, the config or the audit trail.
 */
export async function refuseScannedFile(cwd: string, given: string | undefined, role: PathRole & { flag: string }, folders: readonly string[]): Promise<void> {
  if (given === undefined) return;
  const real = await realpath(path.resolve(cwd, given)).catch(() => undefined);
  if (real === undefined || /\.sarif$/i.test(real)) return;
  for (const folder of folders) {
    if (isInside(await realpath(folder).catch(() => path.resolve(folder)), real)) {
      throw badPath(`${named(role, given)} is a file in the folder it reads (${inline(path.relative(cwd, real) || real)}): writing it would replace it; write to a new file or a .sarif one`);
    }
  }
}

/** True when both paths name one existing file (through links too). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}
