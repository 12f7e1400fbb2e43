// Named integrity errors with a stable kind: a strict-mode block, and an operation that needs a valid lockfile.
import { strictFailureText } from './messages';
import type { IntegrityFinding, IntegrityStatus } from './types';

/** Thrown under strict mode after the block is recorded: pinned prompt files drifted, a skill or prompt file is not
 * pinned, or the lockfile is corrupt or gone. */
export class SkillIntegrityError extends Error {
  override readonly name = 'SkillIntegrityError';
  constructor(
    readonly kind: Exclude<IntegrityStatus, 'clean'>,
    readonly findings: readonly IntegrityFinding[],
  ) {
    super(strictFailureText(findings));
  }
}

/** Thrown when an operation (re-pin) needs a readable lockfile and there is none or it is corrupt, or the file cannot
 * be pinned; or when a lockfile is restored from git and one is there already. */
export class LockfileStateError extends Error {
  override readonly name = 'LockfileStateError';
  constructor(
    readonly kind: 'no-lockfile' | 'lockfile-present' | 'corrupt-lockfile' | 'unsafe-path' | 'unpinnable' | 'drifted',
    message: string,
  ) {
    super(message);
  }
}
