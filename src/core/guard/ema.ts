// EMA smoothing of P_inf and its trend (delta), per agent across rounds.

/** Smoothed value and trend after adding `value` to an EMA whose previous value is `previous` (undefined at the start). */
export function emaStep(previous: number | undefined, value: number, alpha: number): { smoothed: number; trend: number } {
  if (previous === undefined) return { smoothed: value, trend: 0 };
  const smoothed = alpha * value + (1 - alpha) * previous;
  return { smoothed, trend: smoothed - previous };
}
