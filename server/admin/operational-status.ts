/** The operational status answer: background processes, actors' last contact, integrations, content service, scheduler. */
import type { Db } from '../db/index';
import type { ContentServiceAnswer } from '../../src/api/contracts/session';
import type { OperationalStatus, StatusActor, StatusIntegration, StatusProcess, StatusScheduler } from '../../src/api/contracts/operational-status';

/** Administrators see every user's processes; others their own. */
export async function readOperationalStatus(db: Db, user: { id: number; all: boolean }): Promise<OperationalStatus> {
  const [processes, actors, integrations, content, scheduler, next] = await Promise.all([
    db.query<StatusProcess>(
      `select b.id, b.kind, b.status, b.result, u.email as user_email, b.created_at::text, b.updated_at::text
         from background_processes b left join users u on u.id = b.user_id
        where $1 or b.user_id = $2 order by b.id desc limit 50`,
      [user.all, user.id],
    ),
    db.query<StatusActor>(
      `select n.id, n.name, n.node_type, n.status, n.node_version, n.last_heartbeat_at::text, n.retired_at::text,
              (select count(*)::int from engine_work w where w.node_id = n.id and w.status in ('held', 'queued', 'claimed', 'ready')) as open_work
         from nodes n order by n.last_heartbeat_at desc nulls last, lower(n.name), n.id`,
    ),
    db.query<StatusIntegration>(
      `select i.id, i.name, i.type, i.enabled, i.source_path,
              (select count(*)::int from integration_events e where e.integration_id = i.id and e.received_at > now() - interval '1 day') as events_last_day,
              (select max(e.received_at)::text from integration_events e where e.integration_id = i.id) as last_event_at
         from integrations i order by lower(i.name), i.id`,
    ),
    db.query<{ value: ContentServiceAnswer; updated_at: string }>("select value, updated_at::text from settings where key = 'content_service'"),
    db.query<StatusScheduler>(
      `select (select count(*)::int from engine_jobs where active) as active_jobs,
              (select count(*)::int from engine_work where status in ('held', 'queued', 'claimed', 'ready')) as open_work,
              (select count(*)::int from monitors where not paused and next_run_at is not null) as monitors_scheduled,
              (select count(*)::int from monitors where paused) as monitors_paused,
              (select count(*)::int from monitors where not paused and next_run_at < now() - interval '1 minute') as monitors_overdue`,
    ),
    db.query<{ id: number; name: string; next_run_at: string }>('select id, name, next_run_at::text from monitors where not paused and next_run_at is not null order by next_run_at, id limit 1'),
  ]);
  const stored = content[0];
  return {
    checked_at: new Date().toISOString(),
    processes,
    actors,
    integrations,
    // No recorded state means the director has not lost the connection (as GET /settings/content_service.json answers).
    content_service: stored ? { ...stored.value, updated_at: stored.updated_at } : { content_service_state: 'CONNECTED', content_service_last_success: null, updated_at: null },
    scheduler: { ...(scheduler[0] as StatusScheduler), next_monitor: next[0] ?? null },
  };
}
