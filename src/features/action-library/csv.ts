/** Comma-separated CSV field, quoted when needed (apart from format.ts so commands need no date library). */
export function csvField(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
