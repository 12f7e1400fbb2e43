// Named integrity errors with a stable kind: a strict-mode block, and an operation that needs a valid lockfile.
import { strictFailureText } from './messages';
import type { IntegrityFinding } from './types';

/** Thrown under strict mode after the block is recorded: pinned prompt files drifted or the lockfile is corrupt. */
export class SkillIntegrityError extends Error {
  override readonly name = 'SkillIntegrityError';
  constructor(
    readonly kind: 'drift' | 'corrupt-lockfile',
    readonly findings: readonly IntegrityFinding[],
  ) {
    super(strictFailureText(findings));
  }
}

/** Thrown when an operation (re-pin) needs a readable lockfile and there is none or it is corrupt. */
export class LockfileStateError extends Error {
  override readonly name = 'LockfileStateError';
  constructor(
    readonly kind: 'no-lockfile' | 'corrupt-lockfile' | 'unsafe-path',
    message: string,
  ) {
    super(message);
  }
}
