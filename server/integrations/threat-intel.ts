/** Threat-intel sources: list, the creation form, create, update, delete (the SQL of server/routes/threat-intel.ts). */
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import { sealWithDirectorKey } from '../admin/secret-box';
import {
  THREAT_INTEL_KINDS,
  threatIntelKind,
  type ThreatIntelCreate,
  type ThreatIntelNewForm,
  type ThreatIntelSource,
  type ThreatIntelTemplate,
  type ThreatIntelUpdate,
} from '../../src/api/contracts/threat-intel';

const COLUMNS = `id, name, kind, url, enabled, api_key_ciphertext is not null as has_api_key, created_at, updated_at`;
type Row = Omit<ThreatIntelSource, 'brand_name' | 'logo_path' | 'created_at' | 'updated_at'> & { created_at: Date | string; updated_at: Date | string };

const toSource = (r: Row): ThreatIntelSource => {
  const kind = threatIntelKind(r.kind);
  return { ...r, brand_name: kind?.label ?? r.kind, logo_path: kind?.logo ?? '', created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
};

export const threatIntelCatalogue = (): ThreatIntelTemplate[] => THREAT_INTEL_KINDS.map((k) => ({ type: k.type, name: k.label, logo_path: k.logo, api_key_required: k.keyRequired }));

export async function listThreatIntel(db: Db): Promise<ThreatIntelSource[]> {
  return (await db.query<Row>(`select ${COLUMNS} from threat_intel_integrations order by lower(name), id`)).map(toSource);
}

async function getSource(db: Db, id: number): Promise<ThreatIntelSource> {
  const [row] = await db.query<Row>(`select ${COLUMNS} from threat_intel_integrations where id = $1`, [id]);
  if (!row) throw notFound(`Threat-intel source ${id} does not exist.`);
  return toSource(row);
}

async function refuseTakenName(db: Db, name: string, exceptId: number | null): Promise<void> {
  const [taken] = await db.query('select 1 from threat_intel_integrations where lower(name) = lower($1) and id is distinct from $2', [name, exceptId]);
  if (taken) throw new HttpError(409, `A threat-intel source named ${name} already exists.`, { errors: { name: ['is already taken'] } });
}

/** The creation modal of one kind, or null for a kind that does not exist. */
export async function threatIntelNewForm(db: Db, type: string): Promise<ThreatIntelNewForm | null> {
  const kind = threatIntelKind(type);
  if (!kind) return null;
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from threat_intel_integrations where kind = $1', [type]);
  return {
    integration_type: kind.type,
    title: `Add ${kind.label}`,
    brand_name: kind.label,
    logo_path: kind.logo,
    description: kind.description,
    name: n ? `${kind.label} ${n + 1}` : kind.label,
    url_placeholder: kind.placeholder,
    api_key_required: kind.keyRequired,
  };
}

export async function createThreatIntel(db: Db, dataDir: string, input: ThreatIntelCreate): Promise<ThreatIntelSource> {
  await refuseTakenName(db, input.name, null);
  const key = input.api_key ? sealWithDirectorKey(dataDir, input.api_key) : null;
  const [row] = await db.query<{ id: number }>('insert into threat_intel_integrations (name, kind, url, api_key_ciphertext, enabled) values ($1, $2, $3, $4, $5) returning id', [
    input.name,
    input.kind,
    input.url,
    key,
    input.enabled ?? true,
  ]);
  if (!row) throw new Error('insert returned no row');
  return getSource(db, row.id);
}

export async function updateThreatIntel(db: Db, dataDir: string, id: number, input: ThreatIntelUpdate): Promise<ThreatIntelSource> {
  const current = await getSource(db, id);
  if (input.name) await refuseTakenName(db, input.name, id);
  const kind = threatIntelKind(current.kind);
  if (input.clear_api_key && kind?.keyRequired) throw badRequest(`${kind.label} needs an API key: give a new one instead of removing it.`, { errors: { api_key: [`${kind.label} needs an API key`] } });
  const key = input.api_key ? sealWithDirectorKey(dataDir, input.api_key) : null;
  await db.query(
    `update threat_intel_integrations set name = coalesce($2, name), url = coalesce($3, url), enabled = coalesce($4, enabled),
        api_key_ciphertext = case when $6 then null else coalesce($5, api_key_ciphertext) end, updated_at = now()
      where id = $1`,
    [id, input.name ?? null, input.url ?? null, input.enabled ?? null, key, input.clear_api_key === true],
  );
  return getSource(db, id);
}

export async function deleteThreatIntel(db: Db, id: number): Promise<{ id: number; message: string }> {
  const source = await getSource(db, id);
  await db.query('delete from threat_intel_integrations where id = $1', [id]);
  return { id, message: `Threat-intel source ${source.name} was deleted.` };
}
