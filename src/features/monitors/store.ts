import { proxy } from 'valtio';

/** A monitor as its commands name it. */
export interface CurrentMonitor {
  id: number;
  name: string;
  paused: boolean;
}

/** Whether the Monitors list shows the drift list (the monitors.drift command opens it). */
export const monitorStore = proxy<{ showDrift: boolean }>({ showDrift: false });
