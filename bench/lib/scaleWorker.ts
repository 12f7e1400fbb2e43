// Child process of the speed bench: reads one trace file, analyses it with the embedded default, and prints the
// timings and this process's peak memory as JSON (a fresh process so the peak is the analysis's own).
// `guard-only` as the second argument turns the propagation monitor's signals off to time the guard alone.
import { readFileSync } from 'node:fs';
import { defaultConfig } from '../../src/core/config';
import { analyzeTrace } from '../../src/core/guard/analyze';
import { readTraceFile } from '../../src/node/readTrace';

async function main(): Promise<void> {
  const file = process.argv[2];
  const t0 = performance.now();
  const trace = await readTraceFile(file);
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  const config = defaultConfig();
  if (process.argv[3] === 'guard-only') config.sections.monitor = { signals: { viralPersona: false, propagation: false, propagationRequest: false, verbatimSpread: false } };
  const analysis = await analyzeTrace(trace, { config });
  const t2 = performance.now();
  const flagged = analysis.agents.filter((a) => a.category !== 'benign').length;
  const cpu = process.cpuUsage(cpu0);
  const peakRssMb = ownPeakRssMb();
  const f1 = analysis.evaluation?.attacker.f1 ?? null;
  console.log(JSON.stringify({ analyzeCpuMs: (cpu.user + cpu.system) / 1000, parseMs: t1 - t0, analyzeMs: t2 - t1, peakRssMb, flagged, f1 }));
}

/**
 * This process's peak resident memory in MB. On Linux resourceUsage().maxRSS survives fork and exec, so a worker
 * spawned by a bench that had grown to 234 MB reported 234 MB for a 10-agent run; VmHWM starts afresh at exec.
 */
function ownPeakRssMb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
