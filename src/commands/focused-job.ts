import { definePaneContext } from './pane-contexts';

/** The actors a job ran between, step by step: what other panes (the Network Map) show of the focused job. */
export interface FocusedJob {
  id: number;
  name: string;
  /** One pair per step that has actors; `destination` is null for one-actor steps. */
  pairs: { source: number; destination: number | null }[];
}

/** Offered by a pane showing one job (the Job pane): the Network Map highlights that job's actors and path. */
export const focusedJobContext = definePaneContext<FocusedJob>('jobs.focused');
