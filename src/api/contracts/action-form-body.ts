/**
 * The spec's form data for saving an Action (actions.md section 7): nested bracket keys such as
 * `sim_action[name]`, `trees[0][id]`, `dns_action[domain]`, `user_tags[]` and, for cloud,
 * `sim_action[cloud_action_attributes][scripts_attributes][0][name]`.
 *
 * `encodeActionForm` (action-form-encode.ts, without the schemas, for the workbench's first download)
 * turns the JSON payload into those fields (the workbench posts them);
 * `decodeActionForm` turns posted fields (form-encoded or multipart) back into the JSON payload's
 * shape, so the director validates both bodies with the same yup schema and answers the same error keys.
 */
import * as yup from 'yup';
import { actionFormSchema, typeKey } from './action-form';
import { TAG_FIELDS } from './action-form-encode';
import { ACTION_TYPES, type ActionType } from './vocabulary';

export { encodeActionForm } from './action-form-encode';

/** A posted form: each key's value, or its values when the key was sent more than once. */
export type FormFields = Record<string, string | string[] | undefined>;

/** A form key that cannot be decoded (bad brackets, reserved names, mixed list and object). */
export class FormBodyError extends Error {}

const RESERVED = new Set(['__proto__', 'prototype', 'constructor']);
const isIndex = (s: string) => /^\d{1,6}$/.test(s);

// ---------------------------------------------------------------------------------------------
// Decoding.

type Tree = Record<string, unknown>;

function segmentsOf(key: string): { segments: string[]; append: boolean } {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) throw new FormBodyError(`"${key}" is not a form field name`);
  const segments = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((s) => s[1]!)];
  const append = segments.at(-1) === '';
  if (append) segments.pop();
  if (segments.some((s) => s === '')) throw new FormBodyError(`"${key}" has an empty [] before its end`);
  const bad = segments.find((s) => RESERVED.has(s));
  if (bad) throw new FormBodyError(`"${key}" uses the reserved name ${bad}`);
  return { segments, append };
}

function place(tree: Tree, key: string, values: string[]) {
  const { segments, append } = segmentsOf(key);
  let node = tree;
  for (const seg of segments.slice(0, -1)) {
    const next = node[seg];
    if (next === undefined) node = node[seg] = {};
    else if (typeof next === 'object' && !Array.isArray(next)) node = next as Tree;
    else throw new FormBodyError(`"${key}" puts fields under a value`);
  }
  const last = segments.at(-1)!;
  const existing = node[last];
  if (existing !== undefined && (typeof existing === 'object') !== append) throw new FormBodyError(`"${key}" is sent both as a value and as a group`);
  // Rails' rule: a key without [] keeps its last value; `key[]` collects every value.
  node[last] = append ? [...((existing as string[] | undefined) ?? []), ...values] : values.at(-1)!;
}

/** Objects whose keys are all indexes become lists, in index order. */
function listify(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(listify);
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Tree);
  if (entries.length && entries.every(([k]) => isIndex(k))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => listify(v));
  return Object.fromEntries(entries.map(([k, v]) => [k, listify(v)]));
}

/** Rails' nested-attributes names: `scripts_attributes` is `scripts`. */
function stripAttributes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripAttributes);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Tree).map(([k, v]) => [k.replace(/_attributes$/, ''), stripAttributes(v)]));
}

const tagList = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : v;

/** Form values are strings: empty numbers and nullable fields become null, checkbox words booleans, single values lists. */
function coerce(schema: yup.Schema | undefined, value: unknown): unknown {
  if (!schema || value === undefined || value === null) return value;
  if (schema instanceof yup.ObjectSchema) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const fields = schema.fields as Record<string, yup.Schema>;
    return Object.fromEntries(Object.entries(value as Tree).map(([k, v]) => [k, coerce(fields[k], v)]));
  }
  if (schema instanceof yup.ArraySchema) {
    const list = typeof value === 'string' ? [value] : value;
    return Array.isArray(list) ? list.map((v) => coerce(schema.innerType as yup.Schema | undefined, v)) : list;
  }
  if (typeof value !== 'string') return value;
  if (value === '' && (schema.spec.nullable || schema.type === 'number')) return null;
  if (schema.type === 'boolean') {
    if (/^(on|yes|checked)$/i.test(value)) return true;
    if (/^(off|no|)$/i.test(value)) return false;
  }
  return value;
}

/** Posted form fields -> the JSON payload's shape (validation is left to actionFormSchema). */
export function decodeActionForm(fields: FormFields): Tree {
  const tree: Tree = {};
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === undefined || key === 'authenticity_token') continue;
    place(tree, key, Array.isArray(raw) ? raw.map(String) : [String(raw)]);
  }
  const body = stripAttributes(listify(tree)) as Tree;

  // Type fields may come nested in sim_action (`sim_action[cloud_action_attributes]`) or at the top.
  const sim = body.sim_action && typeof body.sim_action === 'object' && !Array.isArray(body.sim_action) ? (body.sim_action as Tree) : null;
  if (sim) {
    for (const t of ACTION_TYPES) {
      const k = typeKey(t);
      if (!(k in sim)) continue;
      const top = body[k];
      body[k] = top && typeof top === 'object' && !Array.isArray(top) ? { ...(sim[k] as Tree), ...(top as Tree) } : sim[k];
      delete sim[k];
    }
  }

  // Tag lists by hidden field name; a form with no tag field sends no tags.
  const tags = (body.tags && typeof body.tags === 'object' && !Array.isArray(body.tags) ? body.tags : {}) as Tree;
  for (const f of TAG_FIELDS) {
    if (f in body) tags[f] = body[f];
    delete body[f];
    tags[f] = tagList(tags[f] ?? []);
  }
  body.tags = tags;

  const type = sim?.action_type;
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type)) return body;
  // A type whose fields are all empty lists (or a sleep) sends no field at all.
  body[typeKey(type as ActionType)] ??= {};
  return coerce(actionFormSchema(type as ActionType), body) as Tree;
}

/** URLSearchParams as FormFields (repeated keys keep every value). */
export function formFieldsOf(params: URLSearchParams): FormFields {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) (out[k] ??= []).push(v);
  return out;
}

/** Whether a request's Content-Type is a form (urlencoded or multipart). */
export const isFormContentType = (contentType: string | undefined) => /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType ?? '');
