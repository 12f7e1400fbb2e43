// Cleanup that runs however a test run ends: normal exit, a thrown error, Ctrl-C or a watchdog timeout.
const tasks: { name: string; run: () => Promise<void> | void }[] = [];
let running: Promise<void> | undefined;

/** Registers a cleanup step; steps run last-registered first. Returns a function that runs and removes it early. */
export function onCleanup(name: string, run: () => Promise<void> | void): () => Promise<void> {
  const task = { name, run };
  tasks.push(task);
  return async () => {
    const index = tasks.indexOf(task);
    if (index < 0) return;
    tasks.splice(index, 1);
    await runTask(task);
  };
}

async function runTask(task: { name: string; run: () => Promise<void> | void }): Promise<void> {
  try {
    await task.run();
  } catch (error) {
    console.error(`[vscode-test] cleanup "${task.name}" failed: ${(error as Error).message}`);
  }
}

/** Runs every registered step once (later calls wait for the same run). */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (tasks.length > 0) await runTask(tasks.pop()!);
  })();
  return running;
}

/** Exits with `code` after cleanup; signals and uncaught errors take the same path. */
export async function exitAfterCleanup(code: number): Promise<never> {
  await cleanupAll();
  process.exit(code);
}

let installed = false;
/** Routes SIGINT/SIGTERM/SIGHUP and uncaught errors through cleanup, so no server or browser outlives the run. */
export function installExitHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      console.error(`[vscode-test] ${signal}: cleaning up`);
      void exitAfterCleanup(130);
    });
  }
  process.on('uncaughtException', (error) => {
    console.error('[vscode-test] uncaught:', error);
    void exitAfterCleanup(1);
  });
  process.on('unhandledRejection', (error) => {
    console.error('[vscode-test] unhandled rejection:', error);
    void exitAfterCleanup(1);
  });
}

/** Starts a watchdog: after `ms` it calls `onTimeout` (for a screenshot and logs), cleans up and exits 1. */
export function startWatchdog(ms: number, what: string, onTimeout: () => Promise<void>): () => void {
  const timer = setTimeout(() => {
    console.error(`[vscode-test] ${what} did not finish within ${Math.round(ms / 1000)} s: failing the run`);
    void onTimeout()
      .catch((error: Error) => console.error(`[vscode-test] timeout report failed: ${error.message}`))
      .finally(() => void exitAfterCleanup(1));
  }, ms);
  timer.unref();
  return () => clearTimeout(timer);
}
