// The strict-mode guard run-related commands call first: `if (!(await assertRunAllowed('Analyze Trace'))) return;`.
import type { IntegrityController } from './controller';

let controller: IntegrityController | undefined;

/** Set by the integrity feature when it registers (undefined when it is not running). */
export function setRunGuardController(value: IntegrityController | undefined): void {
  controller = value;
}

/** False, with the refusal recorded and explained to the user, while strict mode is on and pinned files drifted. */
export async function assertRunAllowed(action: string): Promise<boolean> {
  return controller ? controller.assertRunAllowed(action) : true;
}
