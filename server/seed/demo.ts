import type { Db } from '../db/index';
import { generateDemoData, type DemoData } from '../../src/api/fakes/index';
import { withDemoContent } from './demo-files';
import { seedDemoCaptures } from './demo-captures';
import { FileStore } from '../file-library/store';
import { SharedFiles } from '../storage/shared-files';
import { seedDemoDashboards } from './demo-dashboards';
import { endJobsWithoutEngine } from '../engine/orphans';

type ColType = 'int' | 'text' | 'bool' | 'jsonb' | 'timestamptz' | 'bytea';
type Col<R> = readonly [keyof R & string, ColType];

interface TableInsert {
  table: string;
  count(d: DemoData): number;
  insert(db: Db, d: DemoData): Promise<void>;
}

const BATCH = 500;
const ARRAY_TYPE: Record<ColType, string> = { int: 'int[]', text: 'text[]', bool: 'boolean[]', jsonb: 'text[]', timestamptz: 'timestamptz[]', bytea: 'text[]' };

/**
 * Bulk insert: one `insert ... select from unnest(arrays)` per batch, one array parameter per column,
 * so a batch costs one statement on both PGlite and PostgreSQL. jsonb travels as text and is cast,
 * bytea as hex text and is decoded.
 */
function table<R>(name: string, rows: (d: DemoData) => readonly R[], columns: readonly Col<R>[]): TableInsert {
  const names = columns.map(([c]) => c).join(', ');
  const selects = columns.map(([, t], i) => (t === 'jsonb' ? `c${i}::jsonb` : t === 'bytea' ? `decode(c${i}, 'hex')` : `c${i}`)).join(', ');
  const arrays = columns.map(([, t], i) => `$${i + 1}::${ARRAY_TYPE[t]}`).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  const sql = `insert into ${name} (${names}) select ${selects} from unnest(${arrays}) as u(${aliases})`;
  return {
    table: name,
    count: (d) => rows(d).length,
    async insert(db, d) {
      const all = rows(d);
      for (let start = 0; start < all.length; start += BATCH) {
        const batch = all.slice(start, start + BATCH);
        const params = columns.map(([c, t]) => batch.map((r) => (t === 'jsonb' ? JSON.stringify(r[c]) : r[c])));
        await db.query(sql, params);
      }
    },
  };
}

/** Tables in foreign-key order. */
const TABLES: readonly TableInsert[] = [
  table('tags', (d) => d.tags, [['id', 'int'], ['name', 'text'], ['class_name', 'text'], ['tag_type', 'text'], ['code', 'text'], ['editable', 'bool']]),
  table('tag_tactics', (d) => d.tag_tactics, [['tag_id', 'int'], ['tactic_tag_id', 'int']]),
  table('dimensions', (d) => d.dimensions, [['id', 'int'], ['type', 'text'], ['parent_id', 'int'], ['name', 'text'], ['param_name', 'text'], ['position', 'int']]),
  table('dimension_defaults', (d) => d.dimension_defaults, [['action_type', 'text'], ['dimension_type', 'text'], ['dimension_id', 'int']]),
  table('action_user_profiles', (d) => d.action_user_profiles, [['id', 'int'], ['friendly_name', 'text'], ['username', 'text']]),
  // Every library file with harmless demo bytes (its size and hashes are those of the bytes).
  table('file_library', (d) => withDemoContent(d.file_library), [
    ['id', 'int'], ['orig_file_name', 'text'], ['sha256sum', 'text'], ['sha1sum', 'text'], ['md5sum', 'text'], ['size', 'int'], ['content_file', 'text'], ['file_notes', 'text'],
    ['file_restrictions', 'text'], ['os_tree_id', 'int'], ['created_by', 'int'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
  ]),
  table('file_tags', (d) => d.file_tags, [['file_id', 'int'], ['tag_id', 'int']]),
  table('actions', (d) => d.actions, [
    ['id', 'int'], ['vid', 'text'], ['name', 'text'], ['description', 'text'], ['orig_description', 'text'], ['notes', 'text'], ['action_type', 'text'],
    ['version', 'int'], ['approved', 'bool'], ['disabled', 'bool'], ['decommissioned', 'bool'], ['require_protected', 'bool'], ['approve_anywhere', 'bool'],
    ['monitor_connections', 'bool'], ['timeout_ms', 'int'], ['uac', 'bool'], ['details', 'jsonb'], ['event_filter_rules', 'jsonb'], ['created_by', 'int'],
    ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
  ]),
  table('action_tags', (d) => d.action_tags, [['action_id', 'int'], ['tag_id', 'int']]),
  table('action_dimensions', (d) => d.action_dimensions, [['action_id', 'int'], ['dimension_type', 'text'], ['dimension_id', 'int']]),
  table('action_files', (d) => d.action_files, [['id', 'int'], ['action_id', 'int'], ['file_id', 'int'], ['position', 'int'], ['variable_name', 'text'], ['details', 'jsonb']]),
  table('detection_alerts', (d) => d.detection_alerts, [['id', 'int'], ['action_id', 'int'], ['source', 'text'], ['message', 'text'], ['source_identifier', 'text']]),
  table('signatures', (d) => d.signatures, [['id', 'int'], ['action_id', 'int'], ['text', 'text']]),
  table('simulations', (d) => d.simulations, [
    ['id', 'int'], ['vid', 'text'], ['name', 'text'], ['description', 'text'], ['simulation_type', 'text'], ['disabled', 'bool'], ['decommissioned', 'bool'],
    ['created_by', 'int'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
  ]),
  table('simulation_steps', (d) => d.simulation_steps, [['id', 'int'], ['simulation_id', 'int'], ['position', 'int'], ['name', 'text']]),
  table('simulation_step_actions', (d) => d.simulation_step_actions, [['id', 'int'], ['step_id', 'int'], ['action_id', 'int'], ['position', 'int']]),
  table('simulation_tags', (d) => d.simulation_tags, [['simulation_id', 'int'], ['tag_id', 'int']]),
  table('zones', (d) => d.zones, [['id', 'int'], ['name', 'text'], ['description', 'text'], ['cidr', 'text']]),
  table('nodes', (d) => d.nodes, [
    ['id', 'int'], ['name', 'text'], ['friendly_name', 'text'], ['node_type', 'text'], ['os_base', 'text'], ['os', 'text'], ['node_version', 'text'],
    ['msi_service_version', 'text'], ['deps_installed', 'bool'], ['status', 'text'], ['status_details', 'text'], ['security_zone_id', 'int'],
    ['mgmt_address', 'text'], ['sim_address', 'text'], ['monitor_address', 'text'], ['sandbox_node_id', 'int'], ['username', 'text'],
    ['last_heartbeat_at', 'timestamptz'], ['capabilities', 'jsonb'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
  ]),
  table('node_tags', (d) => d.node_tags, [['node_id', 'int'], ['tag_id', 'int']]),
  table('devices', (d) => d.devices, [['id', 'int'], ['name', 'text'], ['description', 'text'], ['device_type', 'text'], ['prevention_enabled', 'bool'], ['interfaces', 'jsonb']]),
  table('device_zones', (d) => d.device_zones, [['device_id', 'int'], ['zone_id', 'int']]),
  table('topology_links', (d) => d.topology_links, [['id', 'int'], ['id1', 'text'], ['id2', 'text'], ['compliment_id', 'int']]),
  table('integrations', (d) => d.integrations, [
    ['id', 'int'], ['name', 'text'], ['brand_name', 'text'], ['type', 'text'], ['remote', 'bool'], ['host', 'text'], ['logo_path', 'text'], ['enabled', 'bool'],
  ]),
  table('jobs', (d) => d.jobs, [
    ['id', 'int'], ['name', 'text'], ['status', 'text'], ['progress', 'int'], ['simulation_id', 'int'], ['action_id', 'int'], ['user_id', 'int'],
    ['assessment_name', 'text'], ['published_status', 'int'], ['latest_published_time', 'timestamptz'], ['latest_published_pipeline', 'text'],
    ['created_at', 'timestamptz'], ['started_at', 'timestamptz'], ['finished_at', 'timestamptz'], ['updated_at', 'timestamptz'],
  ]),
  table('job_steps', (d) => d.job_steps, [
    ['id', 'int'], ['job_id', 'int'], ['step_id', 'int'], ['group_order', 'int'], ['name', 'text'], ['source_node_id', 'int'], ['destination_node_id', 'int'],
    ['action_user_profile_name', 'text'], ['action_user_profile_friendly_name', 'text'],
  ]),
  table('job_actions', (d) => d.job_actions, [
    ['id', 'int'], ['job_step_id', 'int'], ['job_id', 'int'], ['action_id', 'int'], ['position', 'int'], ['sim_action_vid', 'text'], ['name', 'text'],
    ['action_type', 'text'], ['status', 'text'], ['alerted', 'bool'], ['blocked', 'bool'], ['blocked_msg', 'text'], ['detected_msg', 'text'], ['events', 'int'],
    ['suspect_events', 'int'], ['disabled', 'bool'], ['evidence', 'jsonb'], ['started_at', 'timestamptz'], ['finished_at', 'timestamptz'],
  ]),
  table('job_action_events', (d) => d.job_action_events, [
    ['id', 'int'], ['job_action_id', 'int'], ['integration_id', 'int'], ['description', 'text'], ['raw_event', 'text'], ['suspicious', 'bool'], ['alert', 'bool'], ['severity', 'text'], ['occurred_at', 'timestamptz'],
  ]),
];

/** Tables whose id is a serial: their sequences continue after the explicit ids the seed inserts. */
const SERIAL_TABLES = [
  'tags', 'dimensions', 'action_user_profiles', 'file_library', 'actions', 'action_files', 'detection_alerts', 'signatures', 'simulations',
  'simulation_steps', 'simulation_step_actions', 'zones', 'nodes', 'devices', 'topology_links', 'integrations', 'jobs', 'job_steps', 'job_actions',
  'job_action_events',
];

const DEMO_ACTOR_DETAILS = 'Demo actor: no Vigil actor process runs for it, so it sends no heartbeat.';
export const DEMO_JOB_REASON = 'Its actors are offline: the demo actors send no heartbeats, so no engine ran this job to the end.';

/**
 * The demo's actors have no actor process behind them: none is seeded online or with a heartbeat it
 * never sent (an actor is online only while it really sends heartbeats, see server/actors/presence.ts).
 */
function withoutLiveness(data: DemoData): DemoData {
  const nodes = data.nodes.map((n) => (n.status === 'online' ? { ...n, status: 'offline' as const, status_details: DEMO_ACTOR_DETAILS, last_heartbeat_at: null } : n));
  return { ...data, nodes };
}

/**
 * Fills a fresh install with the deterministic demo content of src/api/fakes (seed 1, timestamps
 * relative to now), in bulk statements inside one transaction. Jobs and authored content are
 * attributed to the existing admin, approver and operator users. The library files' bytes are stored
 * as uploaded ones are (FileStore: `files`, or the database alone without one). With a data directory,
 * the PCAP Actions' captures are stored as uploaded captures are too (DATA_DIR/pcap), so they can be
 * replayed. Returns a one-line summary.
 */
export async function seedDemo(db: Db, opts: { seed?: number; now?: number; jobs?: number; dataDir?: string; files?: SharedFiles } = {}): Promise<string> {
  const existing = await db.query<{ n: number }>('select count(*)::int as n from actions');
  if ((existing[0]?.n ?? 0) > 0) return 'demo content already present';
  const users = await db.query<{ id: number }>(`select id from users where role in ('admin', 'approver', 'operator') order by id`);
  const data = withoutLiveness(generateDemoData(opts.seed ?? 1, { now: opts.now ?? Date.now(), jobs: opts.jobs, userIds: users.map((u) => u.id) }));

  await db.transaction(async (tx) => {
    for (const t of TABLES) await t.insert(tx, data);
    await tx.query(SERIAL_TABLES.map((t) => `select setval(pg_get_serial_sequence('${t}', 'id'), coalesce((select max(id) from ${t}), 0) + 1, false)`).join(' union all '));
    await tx.query(`insert into settings (key, value) values ('demo_seeded_at', to_jsonb(now()::text)) on conflict (key) do nothing`);
  });
  // No engine runs the demo's jobs: the ones generated in progress are history that ended for that reason.
  await endJobsWithoutEngine(db, DEMO_JOB_REASON);
  const files = opts.files ?? new SharedFiles(db, opts.dataDir ?? null, false);
  const library = new FileStore(files);
  for (const f of withDemoContent(data.file_library)) await library.put(f.bytes);
  const captures = files.dataDir ? await seedDemoCaptures(db, files) : 0;
  const dashboards = await seedDemoDashboards(db);

  return [
    `${data.actions.length} actions`,
    `${data.simulations.length} simulations`,
    `${data.jobs.length} jobs (${data.job_actions.length} action results)`,
    `${data.file_library.length} library files`,
    ...(files.dataDir ? [`${captures} packet captures`] : []),
    `${data.nodes.length} actors in ${data.zones.length} zones`,
    `${data.devices.length} devices`,
    `${data.tags.length} tags`,
    `${data.dimensions.length} dimension nodes`,
    `${dashboards} dashboards`,
  ].join(', ');
}
