// The audit key of the CLI and the runtime API, kept outside every workspace: the AGENT_IMMUNE_AUDIT_KEY environment
// variable (a CI secret), else a user-level key file (AGENT_IMMUNE_AUDIT_KEY_FILE, default
// ~/.config/agent-immune/audit.key). A key file inside the workspace, or readable by others, is refused.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { auditKeyOf, type AuditKey } from '../../core/integrity/audit';
import { InputError } from '../../core/errors';
import { isInside } from '../workspaceFs';

/** Environment variable holding the key itself. */
export const AUDIT_KEY_ENV = 'AGENT_IMMUNE_AUDIT_KEY';

/** Environment variable naming the key file. */
export const AUDIT_KEY_FILE_ENV = 'AGENT_IMMUNE_AUDIT_KEY_FILE';

/** The shortest key accepted, in characters (a created key has 43). */
export const MIN_AUDIT_KEY_LENGTH = 32;

/** Where a key would come from, in words (for a chain verified without one). */
export function auditKeyHint(env: NodeJS.ProcessEnv): string {
  const file = auditKeyFile(env);
  return `${AUDIT_KEY_ENV}${file ? `, or the key file ${file}` : ''}`;
}

/** A key and where it came from (the variable's name, or the key file's path). */
export interface LoadedAuditKey {
  key: AuditKey;
  source: string;
}

/** The user-level key file: AGENT_IMMUNE_AUDIT_KEY_FILE, else $XDG_CONFIG_HOME (or $HOME/.config, %APPDATA% on
 * Windows)/agent-immune/audit.key, all read from `env`; undefined when `env` names no home at all. */
export function auditKeyFile(env: NodeJS.ProcessEnv): string | undefined {
  if (env[AUDIT_KEY_FILE_ENV]) return path.resolve(env[AUDIT_KEY_FILE_ENV]);
  const base = env.XDG_CONFIG_HOME || (process.platform === 'win32' ? env.APPDATA : undefined) || (env.HOME ? path.join(env.HOME, '.config') : undefined);
  return base ? path.join(base, 'agent-immune', 'audit.key') : undefined;
}

/** The key of a key text (trimmed; at least MIN_AUDIT_KEY_LENGTH characters). */
function keyOfText(text: string, source: string): AuditKey {
  const trimmed = text.trim();
  if (trimmed.length < MIN_AUDIT_KEY_LENGTH) throw new InputError('invalid-config', `the audit key from ${source} is shorter than ${MIN_AUDIT_KEY_LENGTH} characters; create one with "agent-immune audit key --create"`, undefined, undefined, AUDIT_KEY_ENV);
  return auditKeyOf(new TextEncoder().encode(trimmed));
}

/**
 * Loads the audit key, if one is set up; `workspace` is the root being worked on (none outside a project): a key file
 * inside it is refused (an agent that can edit the workspace could read it and forge records). Throws InputError('invalid-config') on a key
 * that is too short, a key file inside the workspace or readable by others, or a named key file that is missing.
 */
export async function loadAuditKey(env: NodeJS.ProcessEnv, workspace: string | undefined): Promise<LoadedAuditKey | undefined> {
  if (env[AUDIT_KEY_ENV]) return { key: keyOfText(env[AUDIT_KEY_ENV], AUDIT_KEY_ENV), source: AUDIT_KEY_ENV };
  const file = auditKeyFile(env);
  if (!file) return undefined;
  const refuse = (why: string) => new InputError('invalid-config', `the audit key file ${file} ${why}`, file, undefined, AUDIT_KEY_FILE_ENV);
  const real = await realpath(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && !env[AUDIT_KEY_FILE_ENV]) return undefined;
    throw refuse(error.code === 'ENOENT' ? `does not exist: create it with "agent-immune audit key --create", or unset ${AUDIT_KEY_FILE_ENV}` : `cannot be read (${error.code})`);
  });
  if (real === undefined) return undefined;
  const root = workspace === undefined ? undefined : await realpath(workspace).catch(() => path.resolve(workspace));
  if (root !== undefined && isInside(root, real)) throw refuse('is inside the workspace, where an agent could read it; move it to your home folder');
  const info = await stat(real);
  if (!info.isFile()) throw refuse('is not a regular file');
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) throw refuse(`can be read or written by other users; run: chmod 600 ${file}`);
  return { key: keyOfText(await readFile(real, 'utf8'), file), source: file };
}

/** Writes `text` as the key of the user-level key file (mode 0600); refuses to replace a key file, or to write one
 * inside any of `workspaces`. */
export async function writeAuditKeyFile(env: NodeJS.ProcessEnv, workspaces: readonly string[], text: string): Promise<LoadedAuditKey> {
  const file = auditKeyFile(env);
  if (!file) throw new InputError('invalid-config', `no home folder to keep the audit key in: set HOME, XDG_CONFIG_HOME or ${AUDIT_KEY_FILE_ENV}`, undefined, undefined, AUDIT_KEY_FILE_ENV);
  for (const workspace of workspaces) {
    const root = await realpath(workspace).catch(() => path.resolve(workspace));
    if (isInside(root, file) || isInside(path.resolve(workspace), file)) throw new InputError('invalid-config', `refusing to write the audit key file ${file} inside the workspace, where an agent could read it`, file, undefined, AUDIT_KEY_FILE_ENV);
  }
  const key = keyOfText(text, file);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await open(file, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EEXIST' ? new InputError('invalid-config', `the audit key file ${file} already exists; it was kept (delete it first to replace it, which leaves older records unverifiable)`, file) : error;
  });
  try {
    await handle.writeFile(text + '\n');
  } finally {
    await handle.close();
  }
  await chmod(file, 0o600);
  return { key, source: file };
}

/** Creates a new random key in the user-level key file (see writeAuditKeyFile); returns it. */
export function createAuditKeyFile(env: NodeJS.ProcessEnv, workspace: string | undefined): Promise<LoadedAuditKey> {
  return writeAuditKeyFile(env, workspace === undefined ? [] : [workspace], randomBytes(32).toString('base64url'));
}
