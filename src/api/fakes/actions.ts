import { EMAIL_FILE_DEFAULT, HOST_FILE_DEFAULT, resolveDetails, type CatalogEntry, type DetailContext } from './catalog';
import { CLOUD_AND_SLEEP } from './catalog-cloud';
import { DELIVERY } from './catalog-delivery';
import { HOST_CLI } from './catalog-host';
import { NETWORK } from './catalog-network';
import { WEB_REQUEST } from './catalog-web';
import { TYPE_DIMENSION_DEFAULTS, type DimensionSet } from './dimensions';
import type { FileSet } from './files';
import { DAY, iso, type Rng } from './random';
import {
  DIMENSION_TYPES,
  type DimensionType,
  type ActionDimensionRow,
  type ActionFileRow,
  type ActionRow,
  type ActionTagRow,
  type EventFilterRule,
  type HostCliDetails,
} from './types';

/** Every hand-written Action of the demo library, in id order. */
export const CATALOG: readonly CatalogEntry[] = [...HOST_CLI, ...NETWORK, ...WEB_REQUEST, ...DELIVERY, ...CLOUD_AND_SLEEP];

/** Dimension values for types neither the entry nor the type defaults set: plausible, not uniform. */
const FALLBACK_DIMENSIONS: Record<DimensionType, readonly string[]> = {
  attack_vector: ['Trojan', 'Backdoor/RAT', 'Network Reconnaissance'],
  attacker_location: ['Same Zone', 'Different Zone', 'Internet'],
  behavior_type: ['Command and Control', 'Malware Delivery'],
  covert: ['Overt Behavior', 'Overt Behavior', 'Encrypted Channel'],
  os_platform: ['Platform Agnostic', 'Windows'],
  stage_of_attack: ['Execution', 'Delivery', 'Command and Control'],
};

const DISABLED_KEYS = new Set(['dns-doh']);
const DECOMMISSIONED_KEYS = new Set(['ps-ics']);
const VENDOR_GROUPS = ['100', '101', '104', '151'];
const CUSTOM_GROUPS = ['000', '001', '002', '201', '250', '301'];
const NOTES = [
  '',
  '',
  '',
  'Tuned after the Q2 purple team review.',
  'Run only in the change window (Tue 22:00-02:00).',
  'Expected blocked by the perimeter firewall; detection by Splunk correlation search SEC-114.',
  'Owner: SOC detection engineering.',
];

export interface ActionSet {
  actions: ActionRow[];
  action_tags: ActionTagRow[];
  action_dimensions: ActionDimensionRow[];
  action_files: ActionFileRow[];
  /** Action id by catalog key; throws on an unknown key. */
  id(key: string): number;
}

export interface ActionInputs {
  rng: Rng;
  now: number;
  userIds: readonly number[];
  tagId(key: string): number;
  dims: DimensionSet;
  files: FileSet;
  profileId(friendlyName: string): number;
}

function vidFor(entry: CatalogEntry, rng: Rng, used: Set<string>): string {
  const r = rng.fork(`vid:${entry.key}`);
  for (;;) {
    const group = entry.vendor ? r.pick(VENDOR_GROUPS) : r.pick(CUSTOM_GROUPS);
    const vid = `A${group}-${String(r.int(100, 999))}`;
    if (!used.has(vid)) {
      used.add(vid);
      return vid;
    }
  }
}

function eventFilterRules(entry: CatalogEntry, rng: Rng): EventFilterRule[] {
  if (!rng.chance(0.3)) return [];
  const keyword = entry.name.split(' - ')[1]?.split(' ')[0] ?? entry.type;
  return [
    {
      operator: 'or',
      conditions: [
        {
          operator: 'and',
          conditions: [
            { match_object: 'integration', match_field: 'name', operator: 'in', value: ['Splunk Enterprise Security', 'CrowdStrike Falcon'] },
            { match_object: 'event', match_field: 'message', operator: 'contains', value: keyword },
          ],
        },
      ],
    },
  ];
}

export function buildActions(inp: ActionInputs): ActionSet {
  const { rng, now, userIds, dims, files } = inp;
  const ctx: DetailContext = { fileId: (n) => files.id(n), profileId: inp.profileId };
  const used = new Set<string>();
  const actions: ActionRow[] = [];
  const action_tags: ActionTagRow[] = [];
  const action_dimensions: ActionDimensionRow[] = [];
  const action_files: ActionFileRow[] = [];
  const byKey = new Map<string, number>();

  CATALOG.forEach((entry, i) => {
    const id = i + 1;
    byKey.set(entry.key, id);
    const r = rng.fork(`action:${entry.key}`);
    const attached = (entry.files ?? []).map((name) => files.file_library[files.id(name) - 1]);
    const malicious = attached.some((f) => f?.file_restrictions === 'restricted_malicious');
    const pending = attached.some((f) => f?.file_restrictions === 'pending_approval');
    const require_protected = Boolean(entry.require_protected) || (entry.type === 'host_cli' && (malicious || Boolean(entry.monitor_connections)));
    const approved = entry.vendor ? true : pending || (entry.type === 'cloud' && malicious) ? false : r.chance(0.85);
    const created = now - r.int(20, 700) * DAY;
    const updated = Math.min(now - DAY, created + r.int(0, Math.max(0, Math.floor((now - created) / DAY) - 1)) * DAY);
    const details = resolveDetails(entry, ctx);
    const base = {
      id,
      vid: vidFor(entry, rng, used),
      name: entry.name,
      description: entry.description,
      orig_description: entry.description,
      notes: entry.notes ?? r.pick(NOTES),
      version: entry.vendor ? r.int(1, 6) : r.int(1, 3),
      approved,
      disabled: DISABLED_KEYS.has(entry.key),
      decommissioned: DECOMMISSIONED_KEYS.has(entry.key),
      require_protected,
      approve_anywhere: approved && !require_protected && (entry.type === 'host_cli' || entry.type === 'cloud'),
      monitor_connections: Boolean(entry.monitor_connections),
      timeout_ms: entry.timeout_ms ?? 60000,
      uac: Boolean(entry.uac),
      event_filter_rules: eventFilterRules(entry, r),
      created_by: entry.vendor || userIds.length === 0 ? null : r.pick(userIds),
      created_at: iso(created),
      updated_at: iso(updated),
    };
    // The union of entry types guarantees details match action_type; TypeScript cannot correlate the two here.
    actions.push({ ...base, action_type: entry.type, details } as ActionRow);

    const tagKeys = new Set<string>([...entry.techniques, ...(entry.tags ?? [])]);
    if (r.chance(0.15)) tagKeys.add(r.pick(['Priority:High', 'Owner:SOC', 'Owner:Red Team', 'Group:Purple Team Week', 'Group:Quarterly Board Report']));
    for (const k of tagKeys) action_tags.push({ action_id: id, tag_id: inp.tagId(k) });

    for (const type of DIMENSION_TYPES) {
      const name = entry.dims?.[type] ?? TYPE_DIMENSION_DEFAULTS[entry.type]?.[type] ?? r.pick(FALLBACK_DIMENSIONS[type]);
      action_dimensions.push({ action_id: id, dimension_type: type, dimension_id: dims.id(type, name) });
    }

    (entry.files ?? []).forEach((name, position) => {
      const unix = entry.type === 'host_cli' && ['bash', 'sh', 'python'].includes((details as HostCliDetails).shell);
      action_files.push({
        id: action_files.length + 1,
        action_id: id,
        file_id: files.id(name),
        position,
        variable_name: entry.type === 'cloud' ? (entry.fileVariables?.[position] ?? null) : null,
        details:
          entry.type === 'host_cli'
            ? { ...HOST_FILE_DEFAULT, destination_directory: unix ? '/tmp/' : HOST_FILE_DEFAULT.destination_directory, randomize_file: r.chance(0.2) }
            : entry.type === 'email'
              ? { ...EMAIL_FILE_DEFAULT, ignore_if_missing: r.chance(0.3) }
              : {},
      });
    });
  });

  return {
    actions,
    action_tags,
    action_dimensions,
    action_files,
    id(key) {
      const id = byKey.get(key);
      if (id === undefined) throw new Error(`unknown action ${key}`);
      return id;
    },
  };
}
