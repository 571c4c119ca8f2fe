import { definePaneContext } from '@/commands/pane-contexts';
import type { CurrentMonitor } from './store';

/** What the mounted Monitors list offers its commands (`ctx.pane(monitorsListPane)`): its selection, moves and search. */
export interface MonitorsListApi {
  selected(): CurrentMonitor | null;
  move(step: 1 | -1): void;
  focusSearch(): void;
}
export const monitorsListPane = definePaneContext<MonitorsListApi>('monitors.list');

/** What the mounted monitor editor offers its commands (Save, Discard): `ctx.pane(monitorEditorPane)`. */
export interface MonitorEditorApi {
  save(): Promise<unknown>;
  discard(): void;
}
export const monitorEditorPane = definePaneContext<MonitorEditorApi>('monitors.editor');
