/**
 * The expected events table's data (MON-014, MON-041): the distinct events the integrations reported
 * for earlier runs of an Action (the latest raw event of each), grouped by integration id, or by
 * 'endpoint' for events no integration reported; the events a saved monitor action expects are marked
 * is_selected (with their message) and listed even when no run reported them yet.
 */
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import {
  EXPECTED_EVENTS_ENDPOINT,
  type ExpectedEvent,
  type ExpectedEventRow,
  type ExpectedEventsAnswer,
  type ExpectedEventsGroup,
  type ExpectedEventsIntegration,
} from '../../src/api/contracts/monitors';

const MAX_EVENTS = 500;

interface SeenRow {
  integration_id: number | null;
  description: string;
  raw_event: string;
}
interface IntegrationRow {
  id: number;
  name: string;
  host: string;
  type: string;
  logo_path: string;
}

const keyOf = (integrationId: number | null) => (integrationId === null ? EXPECTED_EVENTS_ENDPOINT : String(integrationId));
const same = (a: { integration_id: number | null; description: string }, b: { integration_id: number | null; description: string }) =>
  a.integration_id === b.integration_id && a.description.toLowerCase() === b.description.toLowerCase();

export async function expectedEvents(db: Db, actionId: number, monitorActionId?: number): Promise<ExpectedEventsAnswer> {
  const [action] = await db.query('select 1 from actions where id = $1', [actionId]);
  if (!action) throw notFound(`Action ${actionId} does not exist.`);
  let saved: ExpectedEvent[] = [];
  if (monitorActionId !== undefined) {
    const [ma] = await db.query<{ expected_events: ExpectedEvent[] }>('select expected_events from monitor_actions where id = $1 and action_id = $2', [monitorActionId, actionId]);
    if (!ma) throw notFound(`Monitor action ${monitorActionId} of Action ${actionId} does not exist.`);
    saved = ma.expected_events;
  }
  const seen = await db.query<SeenRow>(
    `select distinct on (coalesce(e.integration_id, 0), lower(e.description)) e.integration_id, e.description, e.raw_event
       from job_action_events e join job_actions ja on ja.id = e.job_action_id
      where ja.action_id = $1
      order by coalesce(e.integration_id, 0), lower(e.description), e.id desc
      limit $2`,
    [actionId, MAX_EVENTS],
  );
  const rows: SeenRow[] = [...seen, ...saved.filter((s) => !seen.some((e) => same(e, s))).map((s) => ({ integration_id: s.integration_id, description: s.description, raw_event: '' }))];
  const integrationIds = [...new Set(rows.map((r) => r.integration_id).filter((x): x is number => x !== null))];
  const integrations = integrationIds.length
    ? await db.query<IntegrationRow>('select id, name, host, type, logo_path from integrations where id = any($1::int[])', [integrationIds])
    : [];
  const byId = new Map(integrations.map((i) => [i.id, i]));
  const groups = new Map<string, ExpectedEventsGroup>();
  for (const r of rows) {
    const key = keyOf(r.integration_id);
    const integ = r.integration_id === null ? undefined : byId.get(r.integration_id);
    const integration: ExpectedEventsIntegration | null = integ ? { id: integ.id, host: integ.host, name: integ.name, logo_path_for_web: integ.logo_path } : null;
    const group = groups.get(key) ?? { key, integration, events: [] };
    groups.set(key, group);
    const pick = saved.find((s) => same(s, r));
    const row: ExpectedEventRow = {
      description: r.description,
      is_selected: pick !== undefined,
      raw_event: r.raw_event,
      security_technology_id: integ ? integ.type : null,
      integration_id: r.integration_id,
      message: pick?.message ?? '',
    };
    group.events.push(row);
  }
  // Integrations first (by name), the endpoint's events last.
  const ordered = [...groups.values()].sort((a, b) =>
    a.key === EXPECTED_EVENTS_ENDPOINT ? 1 : b.key === EXPECTED_EVENTS_ENDPOINT ? -1 : (a.integration?.name ?? a.key).localeCompare(b.integration?.name ?? b.key),
  );
  const technologies = new Map(integrations.map((i) => [i.type, i.logo_path]));
  return { groups: ordered, security_technologies: [...technologies].map(([id, logo]) => ({ id, logo_path_for_web: logo })) };
}
