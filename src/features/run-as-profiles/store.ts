import { proxy } from 'valtio';
import type { RunAsProfile } from '@/api/contracts/run-as-profiles';

/**
 * The Run-as User Profiles pane's shared state: the selected profile (what commands act on by
 * default), the form that is open, and the profiles last loaded (the palette's pick list of names).
 */
export const profilesStore = proxy<{
  selectedId: number | null;
  /** 'new', a profile id being edited, or null. */
  form: 'new' | number | null;
  known: { id: number; friendly_name: string }[];
}>({ selectedId: null, form: null, known: [] });

export function rememberProfiles(rows: readonly RunAsProfile[]): void {
  profilesStore.known = rows.map((r) => ({ id: r.id, friendly_name: r.friendly_name }));
  if (profilesStore.selectedId !== null && !rows.some((r) => r.id === profilesStore.selectedId)) profilesStore.selectedId = rows[0]?.id ?? null;
  if (profilesStore.selectedId === null && rows[0]) profilesStore.selectedId = rows[0].id;
}
