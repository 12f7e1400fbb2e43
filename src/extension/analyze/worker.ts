// Where the embedded guard runs: a worker bundle beside the extension's, so the editor stays responsive.
import * as path from 'node:path';
import type { Services } from '../services';

/** The worker bundle (dist/analysisWorker.js) of the installed extension. */
export function workerScript(services: Services): string {
  return path.join(services.context.extensionPath, 'dist', 'analysisWorker.js');
}
