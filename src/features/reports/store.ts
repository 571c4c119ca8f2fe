import { proxy } from 'valtio';
import type { TimeRangeConfig } from '@/api/contracts/time-range';

/** UI state the commands and the panes share: the open Panel Library, the focused panel per dashboard, export progress, dialogs. */
export interface ReportsStore {
  library: { dashboardId: number; location: 'dashboard' | 'mitre' } | null;
  focused: Record<number, string | null>;
  progress: { label: string; done: number; total: number } | null;
  share: { dashboardId: number } | null;
  options: { dashboardId: number; uid: string } | null;
  rename: { dashboardId: number; name: string } | null;
  /** The CSV export options dialog of a dashboard. */
  csv: { dashboardId: number } | null;
  /** The ATT&CK view's selected technique. */
  technique: string | null;
  /** The ATT&CK view's time range (what "untested" means for the draft command). */
  mitreRange: TimeRangeConfig | null;
}

export const reportsStore = proxy<ReportsStore>({ library: null, focused: {}, progress: null, share: null, options: null, rename: null, csv: null, technique: null, mitreRange: null });
