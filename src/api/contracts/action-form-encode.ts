/**
 * The Action form's JSON payload as the spec's form fields (actions.md section 7), the part of
 * action-form-body.ts the workbench needs to save: it imports no schema, so the yup schemas of the
 * Action form stay out of the workbench's first download.
 */
import type { ActionFormPayload } from './action-form';

export const TAG_FIELDS = ['user_tags', 'verodin_tags'] as const;

function encodeValue(out: [string, string][], key: string, value: unknown, arraySuffix: string) {
  if (value === undefined) return;
  if (value === null) out.push([key, '']);
  else if (Array.isArray(value)) value.forEach((v, i) => encodeValue(out, `${key}[${i}]`, v, arraySuffix));
  else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) encodeValue(out, `${key}[${Array.isArray(v) ? k + arraySuffix : k}]`, v, arraySuffix);
  } else out.push([key, String(value)]);
}

/** The payload as the spec's form fields (without authenticity_token; the request helper sends the token). */
export function encodeActionForm(payload: ActionFormPayload): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'tags') {
      for (const field of TAG_FIELDS) for (const tag of payload.tags[field]) out.push([`${field}[]`, tag]);
    } else if (key === 'cloud_action') encodeValue(out, 'sim_action[cloud_action_attributes]', value, '_attributes');
    else encodeValue(out, key, value, '');
  }
  return out;
}
