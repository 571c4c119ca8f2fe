/** The byte-size helpers (MON-184): base 1024 with units Bytes to TB, base 1000 with units up to YB. */
const UNITS_1024 = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
const UNITS_1000 = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

function format(bytes: number, base: number, units: string[], decimals: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(base)));
  const value = bytes / base ** i;
  return `${i === 0 ? value : Number(value.toFixed(decimals))} ${units[i]}`;
}

export const bytes1024 = (bytes: number, decimals = 2) => format(bytes, 1024, UNITS_1024, decimals);
export const bytes1000 = (bytes: number, decimals = 2) => format(bytes, 1000, UNITS_1000, decimals);
