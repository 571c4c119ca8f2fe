/** What the monitor editor's pickers offer: actors, zones (with how many actors), sender profiles, run-as profiles, monitor groups. */
import type { Db } from '../db/index';
import { presenceSql } from '../actors/presence';
import type { MonitorEditorOptions } from '../../src/api/contracts/monitors';

export async function editorOptions(db: Db): Promise<MonitorEditorOptions> {
  const presence = presenceSql(db, 'nodes');
  const [nodes, zones, email_profiles, action_user_profiles, groups] = await Promise.all([
    db.query<MonitorEditorOptions['nodes'][number]>(`select id, name, node_type, os_base, ${presence.status} as status, security_zone_id as zone_id, node_version, sandbox_node_id,
              array(select t.name from node_tags nt join tags t on t.id = nt.tag_id where nt.node_id = nodes.id order by t.name) as user_tags
         from nodes order by lower(name), id`),
    db.query<MonitorEditorOptions['zones'][number]>(`select z.id, z.name, (select count(*)::int from nodes n where n.security_zone_id = z.id) as node_count from zones z order by lower(z.name), z.id`),
    db.query<MonitorEditorOptions['email_profiles'][number]>(`select id, name, kind, address, associated_node_ids from email_profiles order by lower(name), id`),
    db.query<MonitorEditorOptions['action_user_profiles'][number]>(`select id, friendly_name, username from action_user_profiles order by lower(friendly_name), id`),
    db.query<MonitorEditorOptions['groups'][number]>(`select id, name from monitor_groups order by lower(name), id`),
  ]);
  return { nodes, zones, email_profiles, action_user_profiles, groups };
}
