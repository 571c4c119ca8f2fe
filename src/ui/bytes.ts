/**
 * Byte-size helpers (monitors-actors-reporting.md section 9, MON-184): base 1024 with the units Bytes
 * to TB, and base 1000 with the units up to YB. At most `decimals` digits after the point, trailing
 * zeros dropped ("1.5 KB", "2 MB").
 */
const UNITS_1024 = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;
const UNITS_1000 = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

function format(bytes: number, base: number, units: readonly string[], decimals: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${units[0]}`;
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(base)));
  return `${parseFloat((bytes / base ** i).toFixed(Math.max(0, decimals)))} ${units[i]}`;
}

/** Base 1024: 1536 → "1.5 KB"; beyond TB the count stays in TB. */
export const formatBytes = (bytes: number, decimals = 2) => format(bytes, 1024, UNITS_1024, decimals);

/** Base 1000: 1500 → "1.5 KB", up to YB. */
export const formatBytesDecimal = (bytes: number, decimals = 2) => format(bytes, 1000, UNITS_1000, decimals);
