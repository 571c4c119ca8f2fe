/**
 * The form's values: the payload shape of src/api/contracts/action-form.ts with every type's fields
 * present (so switching types keeps a field registered), plus conversion to the payload, client-side
 * validation with the director's schemas, and the mapping of server error keys onto fields.
 */
import * as yup from 'yup';
import { actionFormSchema, defaultTypeFields, errorKeyFor, fieldPathFor, sleepDurationError, typeKey, type ActionFormPayload, type FormDefinition, type TypeFieldsByType, type TypeKey } from '@/api/contracts/action-form';
import { ACTION_TYPES, DIMENSION_LABELS, DIMENSION_TYPES, type ActionType } from '@/api/contracts/vocabulary';

export type TypeValues = { [K in ActionType as TypeKey<K>]: TypeFieldsByType[K] };

export type ActionFormValues = {
  sim_action: ActionFormPayload['sim_action'];
  system_override: { vid: string };
  trees: { id: number | null }[];
  tags: { user_tags: string[]; verodin_tags: string[] };
} & TypeValues;

export type FormMode = 'new' | 'edit' | 'clone';
export type StepNumber = 1 | 2 | 3;

export function emptyTypeValues(): TypeValues {
  const out = {} as Record<string, unknown>;
  for (const t of ACTION_TYPES) out[typeKey(t)] = defaultTypeFields(t);
  return out as TypeValues;
}

export function emptyValues(): ActionFormValues {
  return {
    sim_action: { name: '', desc: '', action_type: '', timeout_ms: null, uac: false },
    system_override: { vid: '' },
    trees: DIMENSION_TYPES.map(() => ({ id: null })),
    tags: { user_tags: [], verodin_tags: [] },
    ...emptyTypeValues(),
  };
}

/** Dimension defaults of a type applied to the trees (creating only). */
export function applyDimensionDefaults(trees: { id: number | null }[], def: FormDefinition, type: ActionType): { id: number | null }[] {
  const defaults = def.dimension_defaults[type] ?? {};
  return DIMENSION_TYPES.map((t, i) => ({ id: defaults[t] ?? trees[i]?.id ?? null }));
}

export interface Prefill {
  action_type?: string;
  domain?: string;
  dns_name?: string;
  dns_desc?: string;
}

/** Values of a new Action, from the route's query (action_type, and for dns: domain, dns_name, dns_desc). */
export function newValues(def: FormDefinition, prefill: Prefill): ActionFormValues {
  const v = emptyValues();
  const type = (ACTION_TYPES as readonly string[]).includes(prefill.action_type ?? '') ? (prefill.action_type as ActionType) : '';
  if (type) {
    v.sim_action.action_type = type;
    v.trees = applyDimensionDefaults(v.trees, def, type);
    if (type === 'sleep') v.sim_action.timeout_ms = 30000;
  }
  if (type === 'dns' && prefill.domain) v.dns_action.domain = prefill.domain;
  if (prefill.dns_name) v.sim_action.name = prefill.dns_name;
  if (prefill.dns_desc) v.sim_action.desc = prefill.dns_desc;
  return v;
}

/** Values of a loaded Action (edit) or of its copy (clone). */
export function loadedValues(payload: ActionFormPayload, mode: FormMode): ActionFormValues {
  const v = emptyValues();
  const type = payload.sim_action.action_type;
  const merged: ActionFormValues = {
    ...v,
    sim_action: { ...v.sim_action, ...payload.sim_action },
    system_override: { vid: '' },
    trees: DIMENSION_TYPES.map((_, i) => ({ id: payload.trees[i]?.id ?? null })),
    tags: { user_tags: [...payload.tags.user_tags], verodin_tags: [...payload.tags.verodin_tags] },
  };
  if (type) {
    const k = typeKey(type);
    (merged as Record<string, unknown>)[k] = { ...(v[k] as object), ...(payload[k] as object | undefined) };
  }
  if (mode === 'clone') merged.sim_action.name = `${merged.sim_action.name} (copy)`;
  return merged;
}

/** The payload for the chosen type (type fields of other types are not sent). */
export function toPayload(values: ActionFormValues, opts: { brtAuth: boolean; lockVersion?: number }): ActionFormPayload {
  const type = values.sim_action.action_type;
  const payload: ActionFormPayload = {
    sim_action: { ...values.sim_action, name: values.sim_action.name.trim() },
    trees: values.trees.map((t) => ({ id: t.id ?? null })),
    tags: { user_tags: values.tags.user_tags, verodin_tags: values.tags.verodin_tags },
  };
  if (opts.brtAuth && values.system_override.vid.trim()) payload.system_override = { vid: values.system_override.vid.trim() };
  if (opts.lockVersion !== undefined) payload.lock_version = opts.lockVersion;
  if (type) {
    const k = typeKey(type);
    (payload as Record<string, unknown>)[k] = structuredClone(values[k]);
  }
  return payload;
}

export type FieldErrorMap = Record<string, string>;

/** Validates a payload with the director's schema; errors keyed by form field path. */
export function validatePayload(payload: ActionFormPayload): FieldErrorMap {
  const errors: FieldErrorMap = {};
  const type = payload.sim_action.action_type;
  if (!type) {
    errors['sim_action.action_type'] = 'Select an Action Type.';
  }
  const schema = actionFormSchema((type || 'sleep') as ActionType);
  const input = type ? payload : { ...payload, sim_action: { ...payload.sim_action, action_type: 'sleep' }, sleep_action: {} };
  try {
    schema.validateSync(input, { abortEarly: false });
  } catch (e) {
    if (!(e instanceof yup.ValidationError)) throw e;
    for (const inner of e.inner.length ? e.inner : [e]) {
      const path = fieldPathFor(errorKeyFor(inner.path ?? 'base'));
      errors[path] ??= inner.message;
    }
  }
  if (type === 'sleep') {
    const e = sleepDurationError(payload);
    if (e) errors['sim_action.timeout_ms'] ??= e;
  }
  return errors;
}

/** Server errors ({ 'dns_action.domain': [...], 'web_action_steps.0.request': [...], vid: [...] }) as form paths. */
export function serverErrorsToFields(errors: Record<string, string[]> | undefined): FieldErrorMap {
  const out: FieldErrorMap = {};
  for (const [key, messages] of Object.entries(errors ?? {})) {
    if (!messages?.length) continue;
    out[fieldPathFor(key)] = messages.join(' ');
  }
  return out;
}

/** Which step shows a field: 1 name/type/description/VID, 3 tags and dimensions, 2 everything else. */
export function stepOfField(path: string): StepNumber {
  if (/^(sim_action\.(name|desc|action_type)|system_override\.vid)$/.test(path)) return 1;
  if (/^(trees|tags)(\.|$)/.test(path)) return 3;
  return 2;
}

/** Nested errors object for react-hook-form from flat paths ('a.0.b' -> { a: [ { b: {...} } ] }). */
export function nestErrors(flat: FieldErrorMap): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) {
    const parts = path.split('.');
    let node: Record<string, unknown> = root;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) {
        const existing = node[p];
        node[p] = existing && typeof existing === 'object' ? { ...(existing as object), type: 'validation', message } : { type: 'validation', message };
      } else {
        const next = node[p];
        if (!next || typeof next !== 'object') node[p] = /^\d+$/.test(parts[i + 1]!) ? [] : {};
        node = node[p] as Record<string, unknown>;
      }
    });
  }
  return root;
}

/** True when the required header fields are filled (Save and Reset are enabled). */
export function headerFilled(values: Pick<ActionFormValues, 'sim_action'>): boolean {
  return !!values.sim_action.name.trim() && !!values.sim_action.desc.trim() && !!values.sim_action.action_type;
}

const FIELD_LABELS: Record<string, string> = {
  'sim_action.name': 'Name',
  'sim_action.desc': 'Description',
  'sim_action.action_type': 'Action Type',
  'sim_action.timeout_ms': 'Timeout',
  'system_override.vid': 'VID Override',
  'tags.user_tags': 'User Tags',
  'tags.verodin_tags': 'Tags',
  raw_text: 'Script',
  cleanup_raw_text: 'Cleanup Script',
  file_transfer_library_id: 'File',
  ports_list: 'Ports',
  urls: 'URLs',
  resp_code: 'Response Code',
  req_headers: 'Request Headers',
  resp_headers: 'Response Headers',
  dns_server_ip: 'DNS Server IP',
  tunnel_cidr: 'Tunnel CIDR',
};
const humanize = (s: string) => s.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
const ITEM_NOUNS: Record<string, string> = { steps: 'Step', scripts: 'Script', files: 'File', inputs: 'Input', outputs: 'Output', conditions: 'Condition', parameters: 'Parameter', headers: 'Header', urls: 'URL' };

/** A field path as the user reads it: 'trees.2.id' -> 'Behavior Type', 'website_action.steps.1.request' -> 'Step 2 Request'. */
export function fieldLabel(path: string): string {
  const tree = /^trees\.(\d+)\.id$/.exec(path);
  if (tree) return DIMENSION_LABELS[DIMENSION_TYPES[Number(tree[1])]!] ?? path;
  if (FIELD_LABELS[path]) return FIELD_LABELS[path]!;
  const parts = path.split('.').slice(1);
  const words: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const next = parts[i + 1];
    if (next !== undefined && /^\d+$/.test(next) && ITEM_NOUNS[p]) {
      words.push(`${ITEM_NOUNS[p]} ${Number(next) + 1}`);
      i++;
    } else if (!/^\d+$/.test(p)) words.push(FIELD_LABELS[p] ?? humanize(p));
  }
  return words.join(' ') || path;
}
