/** Execution metrics of one plugin: counts, errors, items processed and durations. */
export interface PluginMetrics {
  executionCount: number;
  successCount: number;
  errorCount: number;
  itemsProcessed: number;
  lastExecutionTime: number | null; // Unix ms
  lastDuration: number | null; // ms
  minDuration: number | null;
  maxDuration: number | null;
  totalDuration: number;
  lastError: string | null;
}

export function emptyMetrics(): PluginMetrics {
  return {
    executionCount: 0,
    successCount: 0,
    errorCount: 0,
    itemsProcessed: 0,
    lastExecutionTime: null,
    lastDuration: null,
    minDuration: null,
    maxDuration: null,
    totalDuration: 0,
    lastError: null,
  };
}

export function recordExecution(
  m: PluginMetrics,
  outcome: { startedAt: number; durationMs: number; items: number; error?: unknown },
): void {
  m.executionCount += 1;
  if (outcome.error === undefined) m.successCount += 1;
  else {
    m.errorCount += 1;
    m.lastError = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
  }
  m.itemsProcessed += outcome.items;
  m.lastExecutionTime = outcome.startedAt;
  m.lastDuration = outcome.durationMs;
  m.minDuration = m.minDuration === null ? outcome.durationMs : Math.min(m.minDuration, outcome.durationMs);
  m.maxDuration = m.maxDuration === null ? outcome.durationMs : Math.max(m.maxDuration, outcome.durationMs);
  m.totalDuration += outcome.durationMs;
}
