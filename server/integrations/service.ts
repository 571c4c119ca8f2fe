/** Integrations: listing, creating and removing them (SQL for server/routes/integrations.ts and the lab). */
import type { Db } from '../db/index';
import type { CreateIntegrationRequest, IntegrationRow } from '../../src/api/contracts/integrations';
import { INTEGRATION_KINDS } from '../../src/api/contracts/integrations';

const COLUMNS = `id, name, brand_name, type, remote, host, logo_path, enabled, source_path, created_at`;
type Row = Omit<IntegrationRow, 'created_at'> & { created_at: Date | string };
const toRow = (r: Row): IntegrationRow => ({ ...r, created_at: new Date(r.created_at).toISOString() });

export async function listIntegrations(db: Db): Promise<IntegrationRow[]> {
  return (await db.query<Row>(`select ${COLUMNS} from integrations order by id`)).map(toRow);
}

export async function createIntegration(db: Db, input: CreateIntegrationRequest): Promise<IntegrationRow> {
  const brand = INTEGRATION_KINDS.find((k) => k.type === input.type)?.label ?? input.type;
  const [row] = await db.query<Row>(
    `insert into integrations (name, brand_name, type, source_path) values ($1, $2, $3, $4) returning ${COLUMNS}`,
    [input.name, brand, input.type, input.source_path || null],
  );
  if (!row) throw new Error('The integration was not stored.');
  return toRow(row);
}

/** Removes an integration; its stored events go with it (the job actions' copies stay). False when it did not exist. */
export async function deleteIntegration(db: Db, id: number): Promise<boolean> {
  return (await db.query('delete from integrations where id = $1 returning id', [id])).length > 0;
}
