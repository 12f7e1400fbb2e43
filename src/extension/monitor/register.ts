// Propagation monitoring in the editor: advisory diagnostics on the files agents persist to, registered as one feature.
import type { Services } from '../services';
import { MonitorDiagnostics } from './diagnostics';

/** Registers the monitor's diagnostics. */
export function registerMonitor(services: Services): void {
  new MonitorDiagnostics(services.output).register(services.context.subscriptions);
}
