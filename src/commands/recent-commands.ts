/**
 * The commands a user ran from the palette, most recent first, kept in localStorage per user (the
 * palette lists them first). At most `MAX` ids.
 */
const MAX = 20;
const key = (userId: number | string) => `vigil.palette.recent.${userId}`;

export function recentCommands(userId: number | string | null | undefined): string[] {
  if (userId === null || userId === undefined) return [];
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key(userId)) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, MAX) : [];
  } catch {
    return [];
  }
}

export function rememberCommand(userId: number | string | null | undefined, commandId: string): void {
  if (userId === null || userId === undefined) return;
  const next = [commandId, ...recentCommands(userId).filter((id) => id !== commandId)].slice(0, MAX);
  try {
    localStorage.setItem(key(userId), JSON.stringify(next));
  } catch {
    // Storage full or disabled: the palette simply has no recent list.
  }
}
