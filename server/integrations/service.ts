/** Integrations: listing, creating and removing them, and the menu's catalogue (SQL for server/routes/integrations.ts and the lab). */
import type { Db } from '../db/index';
import type { CreateIntegrationRequest, IntegrationFormField, IntegrationNewForm, IntegrationRow, IntegrationTemplate, IntegrationsAnswer } from '../../src/api/contracts/integrations';
import { INTEGRATION_KINDS } from '../../src/api/contracts/integrations';

const COLUMNS = `id, name, brand_name, type, remote, host, logo_path, enabled, source_path, created_at`;
type Row = Omit<IntegrationRow, 'created_at'> & { created_at: Date | string };
const toRow = (r: Row): IntegrationRow => ({ ...r, created_at: new Date(r.created_at).toISOString() });

export async function listIntegrations(db: Db): Promise<IntegrationRow[]> {
  return (await db.query<Row>(`select ${COLUMNS} from integrations order by id`)).map(toRow);
}

/** The list with each integration's events of the last day and its latest event (GET /integrations.json?events=1). */
export async function listIntegrationsWithEvents(db: Db): Promise<IntegrationsAnswer['data']> {
  const rows = await db.query<Row & { events_last_day: number; last_event_at: string | null }>(
    `select ${COLUMNS.split(', ').map((c) => `i.${c}`).join(', ')},
            (select count(*)::int from integration_events e where e.integration_id = i.id and e.received_at > now() - interval '1 day') as events_last_day,
            (select max(e.received_at) from integration_events e where e.integration_id = i.id) as last_event_at
       from integrations i order by i.id`,
  );
  return rows.map((r) => ({ ...toRow(r), events_last_day: r.events_last_day, last_event_at: r.last_event_at ? new Date(r.last_event_at).toISOString() : null }));
}

/**
 * The integrations the menu offers (JOB-029, JOB-039): the kinds the director takes events from. None
 * runs remotely on an actor, so none is remote or remote-only; each has its one current version.
 */
export function integrationCatalogue(): IntegrationTemplate[] {
  return INTEGRATION_KINDS.map((k) => ({
    name: k.label,
    brand_name: k.label,
    logo_path: k.logo,
    integration_template_id: k.templateId,
    remote: false,
    type: k.type,
    logo: k.logo,
    versions: [{ version: '1', beta: false, deprecated: false, remote_only: false }],
  }));
}

const DESCRIPTIONS: Record<string, string> = {
  webhook: 'Security tools post JSON events to this integration with its token (POST /integrations/{id}/events); the director matches them to job actions by time and addresses.',
  suricata_eve: "The director tails Suricata's EVE JSON log (alerts) from its end, following appends and rotation, and matches the alerts to job actions.",
  nftables_ulogd_json: "The director tails ulogd2's JSON output of packets an nftables rule sent to NFLOG, and matches them to job actions.",
};

/** The creation form of one kind (GET /integrations/new.js), or null for a kind that does not exist. */
export async function integrationNewForm(db: Db, type: string, remote: boolean): Promise<IntegrationNewForm | null> {
  const kind = INTEGRATION_KINDS.find((k) => k.type === type);
  if (!kind) return null;
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from integrations where type = $1', [type]);
  const fields: IntegrationFormField[] = [{ name: 'name', label: 'Name', required: true, value: n ? `${kind.label} ${n + 1}` : kind.label, placeholder: kind.label, help: 'How the integration is named in job results and events.' }];
  if (kind.tailsFile) fields.push({ name: 'source_path', label: 'File the director tails', required: true, value: '', placeholder: kind.placeholder, help: 'An absolute path on the director host; it is read from its end when first seen.' });
  return { integration_type: kind.type, remote, title: `Add ${kind.label}`, brand_name: kind.label, logo_path: kind.logo, description: DESCRIPTIONS[kind.type] ?? '', fields };
}

export async function createIntegration(db: Db, input: CreateIntegrationRequest): Promise<IntegrationRow> {
  const kind = INTEGRATION_KINDS.find((k) => k.type === input.type);
  const [row] = await db.query<Row>(
    `insert into integrations (name, brand_name, type, source_path, logo_path) values ($1, $2, $3, $4, $5) returning ${COLUMNS}`,
    [input.name, kind?.label ?? input.type, input.type, input.source_path || null, kind?.logo ?? ''],
  );
  if (!row) throw new Error('The integration was not stored.');
  return toRow(row);
}

/** Removes an integration; its stored events go with it (the job actions' copies stay). False when it did not exist. */
export async function deleteIntegration(db: Db, id: number): Promise<boolean> {
  return (await db.query('delete from integrations where id = $1 returning id', [id])).length > 0;
}
