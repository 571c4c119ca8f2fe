import { proxy } from 'valtio';

/** Dialogs the jobs commands open; rendered once by JobsDialogs (a feature global). */
export const dialogs = proxy<{
  events: { jobActionId: number; name: string } | null;
  export: { paneKey: string; jobActionReport: boolean } | null;
  publish: { jobIds: number[] } | null;
}>({ events: null, export: null, publish: null });
