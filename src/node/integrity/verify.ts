// Verifies a workspace against its lockfile (the CLI's verify, the runtime API and the extension share it), and
// turns findings into audit events.
import { compareToLock, integrityStatus, sortFindings } from '../../core/integrity/compare';
import type { AuditEvent } from '../../core/integrity/audit';
import type { IntegrityConfig } from '../../core/integrity/scope';
import type { FileDigest, IntegrityFinding, IntegrityStatus, Lockfile } from '../../core/integrity/types';
import { readLockfile } from './lockfileIo';
import { openIntegrityWorkspace, scanWorkspace, type IntegrityWorkspace } from './scan';

/** Schema id of `verify --json` output. */
export const VERIFY_SCHEMA = 'agent-immune/verify/v1';

/** The verify report (`agent-immune verify --json`, docs/lockfile.md). */
export interface VerifyReport {
  schema: typeof VERIFY_SCHEMA;
  status: IntegrityStatus;
  strict: boolean;
  lockfile: string;
  findings: IntegrityFinding[];
}

/** Full state of one verify, kept by the extension for incremental re-verification. */
export interface VerifyState {
  ws: IntegrityWorkspace;
  report: VerifyReport;
  lock: Lockfile | undefined;
  digests: Map<string, FileDigest>;
  symlinkFindings: IntegrityFinding[];
}

/** Verifies `root`; `overrides` replace config settings (e.g. strict, lockfile). */
export async function verifyWorkspace(root: string, overrides: Partial<IntegrityConfig> = {}): Promise<VerifyState> {
  const ws = await openIntegrityWorkspace(root, overrides);
  return verifyOpened(ws);
}

/** Verifies an already opened workspace. */
export async function verifyOpened(ws: IntegrityWorkspace): Promise<VerifyState> {
  const read = await readLockfile(ws.root, ws.config.lockfile);
  const base = { schema: VERIFY_SCHEMA, strict: ws.config.strict, lockfile: read.path } as const;
  if (read.state === 'absent') return { ws, lock: undefined, digests: new Map(), symlinkFindings: [], report: { ...base, status: 'no-lockfile', findings: [] } };
  if (read.state === 'corrupt') return { ws, lock: undefined, digests: new Map(), symlinkFindings: [], report: { ...base, status: 'corrupt-lockfile', findings: [read.finding] } };
  const scan = await scanWorkspace(ws, read.lock, false);
  const state: VerifyState = { ws, lock: read.lock, digests: scan.digests, symlinkFindings: scan.findings, report: { ...base, status: 'clean', findings: [] } };
  return recompare(state);
}

/** Recomputes findings from the state's digests (after the extension updated some of them). */
export function recompare(state: VerifyState): VerifyState {
  if (!state.lock) return state;
  const symlinked = new Set(state.symlinkFindings.map((f) => f.path));
  const findings = sortFindings([...compareToLock(state.lock, state.digests).filter((f) => !(f.code === 'missing' && symlinked.has(f.path))), ...state.symlinkFindings]);
  state.report = { ...state.report, status: integrityStatus(findings), findings };
  return state;
}

/** Audit events for the findings worth recording (everything but advisory `unpinned`), decided as warn or block. */
export function findingEvents(findings: readonly IntegrityFinding[], decision: 'warn' | 'block'): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (const f of findings) {
    if (f.code === 'drift') events.push({ event: 'drift', decision, path: f.path, old: f.expected, new: f.actual });
    else if (f.code === 'missing') events.push({ event: 'missing', decision, path: f.path, old: f.expected });
    else if (f.code === 'renamed') events.push({ event: 'renamed', decision, path: f.path, new: f.integrity, detail: `from ${f.from}` });
    else if (f.code === 'corrupt-lockfile') events.push({ event: 'corrupt-lockfile', decision, path: f.path, detail: `${f.reason}: ${f.detail}` });
    else if (f.code === 'symlink-outside-root') events.push({ event: 'symlink-outside-root', decision, path: f.path });
  }
  return events;
}

/** The block event recorded (after the findings) when strict mode refuses a run. */
export function blockEvent(findings: readonly IntegrityFinding[], by: string): AuditEvent {
  const paths = [...new Set(findings.filter((f) => f.code !== 'unpinned').map((f) => f.path))];
  return { event: 'block', decision: 'block', detail: `${by} refused: ${paths.join(', ')}` };
}
