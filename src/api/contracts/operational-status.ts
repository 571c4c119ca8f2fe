/**
 * Operational status (/operational_status, MON-006): one answer with a section per tab. The spec
 * names the page and that tabIndex=3 is the content service connection; the other tabs are ours.
 */
import type { ContentServiceAnswer } from './session';

/** MON-006: the connection banner's Learn-more link opens tab 3, the content service. */
export const STATUS_TABS = ['Background Processes', 'Actors', 'Integrations', 'Content Service', 'Scheduler'] as const;
export type StatusTab = (typeof STATUS_TABS)[number];

export interface StatusProcess {
  id: number;
  kind: string;
  status: 'running' | 'completed' | 'failed';
  result: string;
  user_email: string | null;
  created_at: string;
  updated_at: string;
}

export interface StatusActor {
  id: number;
  name: string;
  node_type: string;
  status: 'online' | 'offline' | 'pending';
  node_version: string;
  last_heartbeat_at: string | null;
  retired_at: string | null;
  open_work: number;
}

export interface StatusIntegration {
  id: number;
  name: string;
  type: string;
  enabled: boolean;
  source_path: string | null;
  events_last_day: number;
  last_event_at: string | null;
}

export interface StatusScheduler {
  active_jobs: number;
  open_work: number;
  monitors_scheduled: number;
  monitors_paused: number;
  /** Monitors whose next run is more than a minute late. */
  monitors_overdue: number;
  next_monitor: { id: number; name: string; next_run_at: string } | null;
}

export interface OperationalStatus {
  checked_at: string;
  processes: StatusProcess[];
  actors: StatusActor[];
  integrations: StatusIntegration[];
  content_service: ContentServiceAnswer & { updated_at: string | null };
  scheduler: StatusScheduler;
}
