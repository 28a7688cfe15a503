/** Small helpers for the driver: medians and number formatting. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const fmtInt = (n: number): string =>
  Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';
export const fmtRatio = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(2)}×` : '–');
export const fmtMs = (n: number): string =>
  Number.isFinite(n) ? (n >= 100 ? n.toFixed(0) : n.toFixed(1)) : '–';
export const fmtMiB = (bytes: number): string =>
  Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(1) : '–';
