import type { Db } from '../db/index';
import { isVendorVid } from '../../src/api/contracts/library';
import type { IndexEntry } from './sorted-index';
import type { ItemJson } from './item-json';
import type { Dimension } from '../../src/api/contracts/library/answers';
import { DIMENSION_TYPES, type ActionType } from '../../src/api/contracts/vocabulary';

export interface ActionEntry extends IndexEntry {
  name: string;
  desc: string;
  type: ActionType;
  requireProtected: boolean;
  monitorConnections: boolean;
  vendor: boolean;
  /** The newest job the Action ran in, 0 when never run. */
  latestJobId: number;
  /** Its list item as JSON, written by the library on first use (an entry is replaced when its Action changes). */
  json?: ItemJson;
}

export interface SimulationEntry extends IndexEntry {
  name: string;
  desc: string;
  type: 'sequence' | 'eval';
  actionVids: string[];
  groupNames: string[];
  simActions: string[];
  /** The newest job of the simulation, 0 when never run. */
  latestJobId: number;
}

export interface TagInfo {
  id: number;
  name: string;
  tag_type: string;
}

const SEP = '\u0001';
const DESC_CHARS = 240;

export async function loadTags(db: Db): Promise<Map<number, TagInfo>> {
  const rows = await db.query<TagInfo>('select id, name, tag_type from tags');
  return new Map(rows.map((t) => [t.id, t]));
}

export async function loadDimensions(db: Db): Promise<Dimension[]> {
  return db.query<Dimension>('select id, type, parent_id, name, param_name, position from dimensions order by type, position, id');
}

interface ActionDbRow {
  id: number;
  vid: string;
  name: string;
  description: string;
  action_type: ActionType;
  approved: boolean;
  disabled: boolean;
  decommissioned: boolean;
  require_protected: boolean;
  monitor_connections: boolean;
  created: number;
  updated: number;
  modified: number;
}

const idFilter = (column: string, ids: readonly number[] | null) => (ids ? `${column} = any($1::int[])` : 'true');
const params = (ids: readonly number[] | null) => (ids ? [ids] : []);

/**
 * Loads Actions as index entries: all of them (ids null) or the given ids. Ids that no longer exist
 * are returned as `missing`. Five bulk queries whatever the number of Actions.
 */
export async function loadActionEntries(db: Db, ids: readonly number[] | null, tags: Map<number, TagInfo>): Promise<{ entries: ActionEntry[]; missing: number[] }> {
  const rows = await db.query<ActionDbRow>(
    `select id, vid, name, description, action_type, approved, disabled, decommissioned, require_protected, monitor_connections,
            (extract(epoch from created_at) * 1000)::float8 as created,
            (extract(epoch from updated_at) * 1000)::float8 as updated,
            (extract(epoch from coalesce(modified_at, updated_at)) * 1000)::float8 as modified
       from actions where ${idFilter('id', ids)}`,
    params(ids),
  );
  const tagRows = await db.query<{ action_id: number; t: number[] }>(
    `select action_id, array_agg(tag_id order by tag_id) as t from action_tags where ${idFilter('action_id', ids)} group by action_id`,
    params(ids),
  );
  const dimRows = await db.query<{ action_id: number; t: string[]; d: number[] }>(
    `select action_id, array_agg(dimension_type) as t, array_agg(dimension_id) as d from action_dimensions where ${idFilter('action_id', ids)} group by action_id`,
    params(ids),
  );
  const runRows = await db.query<{ action_id: number; n: number; last: number; latest: number }>(
    `select ja.action_id, count(distinct ja.job_id)::int as n, (extract(epoch from max(j.created_at)) * 1000)::float8 as last, max(ja.job_id) as latest
       from job_actions ja join jobs j on j.id = ja.job_id
      where ja.action_id is not null and ${idFilter('ja.action_id', ids)} group by ja.action_id`,
    params(ids),
  );
  const fileRows = await db.query<{ action_id: number; p: number; m: number }>(
    `select af.action_id,
            count(*) filter (where f.file_restrictions = 'pending_approval')::int as p,
            count(*) filter (where f.file_restrictions = 'restricted_malicious')::int as m
       from action_files af join file_library f on f.id = af.file_id
      where ${idFilter('af.action_id', ids)} group by af.action_id`,
    params(ids),
  );
  const tagsOf = new Map(tagRows.map((r) => [r.action_id, r.t]));
  const dimsOf = new Map(dimRows.map((r) => [r.action_id, r]));
  const runsOf = new Map(runRows.map((r) => [r.action_id, r]));
  const filesOf = new Map(fileRows.map((r) => [r.action_id, r]));
  const entries = rows.map((a): ActionEntry => {
    const tagIds = Int32Array.from(tagsOf.get(a.id) ?? []);
    const dims = new Int32Array(DIMENSION_TYPES.length);
    const d = dimsOf.get(a.id);
    d?.t.forEach((type, i) => {
      const pos = (DIMENSION_TYPES as readonly string[]).indexOf(type);
      if (pos >= 0) dims[pos] = d.d[i] ?? 0;
    });
    const runs = runsOf.get(a.id);
    const files = filesOf.get(a.id);
    const tagNames: string[] = [];
    for (const t of tagIds) {
      const info = tags.get(t);
      if (info) tagNames.push(info.name);
    }
    return {
      id: a.id,
      vid: a.vid,
      vidKey: a.vid.toLowerCase(),
      name: a.name,
      nameKey: a.name.toLowerCase(),
      desc: a.description.length > DESC_CHARS ? `${a.description.slice(0, DESC_CHARS)}…` : a.description,
      // Searchable (jobs-simulations-network-map.md section 3): vid, name, desc, action_type, tags.
      hay: [a.vid, a.name, a.description, a.action_type, ...tagNames].join(SEP).toLowerCase(),
      type: a.action_type,
      approved: a.approved,
      disabled: a.disabled,
      decommissioned: a.decommissioned,
      tags: tagIds,
      dims,
      created: a.created,
      updated: a.updated,
      modified: a.modified,
      lastRun: runs?.last ?? 0,
      totalRuns: runs?.n ?? 0,
      pendingFiles: files?.p ?? 0,
      maliciousFiles: files?.m ?? 0,
      requireProtected: a.require_protected,
      monitorConnections: a.monitor_connections,
      vendor: isVendorVid(a.vid),
      latestJobId: runs?.latest ?? 0,
    };
  });
  const found = new Set(rows.map((r) => r.id));
  return { entries, missing: ids ? ids.filter((id) => !found.has(id)) : [] };
}

interface SimulationDbRow {
  id: number;
  vid: string;
  name: string;
  description: string;
  simulation_type: 'sequence' | 'eval';
  disabled: boolean;
  decommissioned: boolean;
  created: number;
  updated: number;
}

/** Loads every simulation as an index entry (simulations are few; they are always loaded in full). */
export async function loadSimulationEntries(db: Db, tags: Map<number, TagInfo>): Promise<SimulationEntry[]> {
  const rows = await db.query<SimulationDbRow>(
    `select id, vid, name, description, simulation_type, disabled, decommissioned,
            (extract(epoch from created_at) * 1000)::float8 as created, (extract(epoch from updated_at) * 1000)::float8 as updated
       from simulations`,
  );
  const steps = await db.query<{ simulation_id: number; names: string[] }>(
    `select simulation_id, array_agg(name order by position) as names from simulation_steps group by simulation_id`,
  );
  const acts = await db.query<{ simulation_id: number; vids: string[]; names: string[]; approved: boolean }>(
    `select st.simulation_id, array_agg(a.vid order by st.position, ssa.position) as vids, array_agg(a.name order by st.position, ssa.position) as names,
            bool_and(a.approved) as approved
       from simulation_step_actions ssa join simulation_steps st on st.id = ssa.step_id join actions a on a.id = ssa.action_id
      group by st.simulation_id`,
  );
  const tagRows = await db.query<{ simulation_id: number; t: number[] }>(
    'select simulation_id, array_agg(tag_id order by tag_id) as t from simulation_tags group by simulation_id',
  );
  const runs = await db.query<{ simulation_id: number; n: number; last: number; latest: number }>(
    `select simulation_id, count(*)::int as n, (extract(epoch from max(created_at)) * 1000)::float8 as last, max(id) as latest
       from jobs where simulation_id is not null group by simulation_id`,
  );
  const stepsOf = new Map(steps.map((r) => [r.simulation_id, r.names]));
  const actsOf = new Map(acts.map((r) => [r.simulation_id, r]));
  const tagsOf = new Map(tagRows.map((r) => [r.simulation_id, r.t]));
  const runsOf = new Map(runs.map((r) => [r.simulation_id, r]));
  return rows.map((s): SimulationEntry => {
    const a = actsOf.get(s.id);
    const tagIds = Int32Array.from(tagsOf.get(s.id) ?? []);
    const groupNames = (stepsOf.get(s.id) ?? []).filter(Boolean);
    const tagNames = [...tagIds].map((t) => tags.get(t)?.name ?? '');
    const r = runsOf.get(s.id);
    return {
      id: s.id,
      vid: s.vid,
      vidKey: s.vid.toLowerCase(),
      name: s.name,
      nameKey: s.name.toLowerCase(),
      desc: s.description.length > DESC_CHARS ? `${s.description.slice(0, DESC_CHARS)}…` : s.description,
      // Searchable: vid, name, desc, tags, action_vids, group_names, sim_actions.
      hay: [s.vid, s.name, s.description, s.simulation_type, ...tagNames, ...(a?.vids ?? []), ...groupNames, ...(a?.names ?? [])].join(SEP).toLowerCase(),
      type: s.simulation_type,
      approved: a?.approved ?? true,
      disabled: s.disabled,
      decommissioned: s.decommissioned,
      tags: tagIds,
      dims: null,
      created: s.created,
      updated: s.updated,
      modified: s.updated,
      lastRun: r?.last ?? 0,
      totalRuns: r?.n ?? 0,
      pendingFiles: 0,
      maliciousFiles: 0,
      actionVids: a?.vids ?? [],
      groupNames,
      simActions: a?.names ?? [],
      latestJobId: r?.latest ?? 0,
    };
  });
}
