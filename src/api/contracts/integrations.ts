/**
 * Integrations: the security tools whose events the director matches to job actions. Three kinds
 * take events: a JSON webhook (POST /integrations/{id}/events with the integration's token), and two
 * that the director reads from a file it tails: Suricata EVE JSON and nftables/ulogd JSON (ulogd2's
 * JSON output of packets an nftables rule sent to NFLOG with `log group N prefix "..."`).
 */
import * as yup from 'yup';

export const INTEGRATION_KINDS = [
  { type: 'webhook', label: 'JSON webhook', tailsFile: false, templateId: 1, logo: '/logos/webhook.svg', placeholder: '' },
  { type: 'suricata_eve', label: 'Suricata EVE JSON', tailsFile: true, templateId: 2, logo: '/logos/suricata.svg', placeholder: '/var/log/suricata/eve.json' },
  { type: 'nftables_ulogd_json', label: 'nftables/ulogd JSON', tailsFile: true, templateId: 3, logo: '/logos/nftables.svg', placeholder: '/var/log/ulogd/ulogd.json' },
] as const;
export const INTEGRATION_TYPES = INTEGRATION_KINDS.map((k) => k.type);
export const FILE_KINDS: readonly string[] = INTEGRATION_KINDS.filter((k) => k.tailsFile).map((k) => k.type);

export interface IntegrationRow {
  id: number;
  name: string;
  brand_name: string;
  type: string;
  remote: boolean;
  host: string;
  logo_path: string;
  enabled: boolean;
  source_path: string | null;
  created_at: string;
}

export const createIntegrationSchema = yup
  .object({
    name: yup.string().trim().required('Name is required').max(120, 'Name is at most 120 characters').label('Name'),
    type: yup
      .string()
      .required('Kind is required')
      .oneOf([...INTEGRATION_TYPES], `Kind must be one of ${INTEGRATION_TYPES.join(', ')}`)
      .label('Kind'),
    source_path: yup
      .string()
      .trim()
      .max(1000, 'The file path is at most 1000 characters')
      .label('File the director tails (Suricata EVE and nftables/ulogd JSON kinds)')
      .when('type', {
        is: (t: string) => FILE_KINDS.includes(t),
        then: (s) => s.required('A file path is required for this kind').matches(/^\//, 'The file path must be absolute'),
        otherwise: (s) => s.optional(),
      }),
  })
  .noUnknown('Unknown field: ${unknown}');
export type CreateIntegrationRequest = yup.InferType<typeof createIntegrationSchema>;

/** A version of an integration to add (JOB-039): the flags the menu shows beside its name. */
export interface IntegrationVersion {
  version: string;
  beta: boolean;
  deprecated: boolean;
  remote_only: boolean;
}

/** An integration the menu offers to add (jobs-simulations-network-map.md section 3, JOB-039). */
export interface IntegrationTemplate {
  name: string;
  brand_name: string;
  logo_path: string;
  integration_template_id: number;
  remote: boolean;
  /** The kind created (integration_type of /integrations/new.js). */
  type: string;
  logo: string;
  versions: IntegrationVersion[];
}

/** The integration service: the director's loop that reads file kinds (and accepts webhook events). */
export type IntegrationServiceStatus = 'running' | 'stopped' | 'error';

/** GET /integrations.json: the configured integrations; with allow_msi=1&include_msi=1 also the menu's answer. */
export interface IntegrationsAnswer {
  data: (IntegrationRow & { events_last_day?: number; last_event_at?: string | null })[];
  available?: IntegrationTemplate[];
  service?: { status: IntegrationServiceStatus; message: string | null };
  actions_disabled?: boolean;
  saas?: boolean;
}

/** A field of an integration's creation form (GET /integrations/new.js). */
export interface IntegrationFormField {
  name: 'name' | 'source_path';
  label: string;
  required: boolean;
  value: string;
  placeholder: string;
  help: string;
}

/** GET /integrations/new.js?integration_type={type}&remote={bool}: what the creation modal shows. */
export interface IntegrationNewForm {
  integration_type: string;
  remote: boolean;
  title: string;
  brand_name: string;
  logo_path: string;
  description: string;
  fields: IntegrationFormField[];
}

export const integrationsListQuerySchema = yup
  .object({
    allow_msi: yup.string().oneOf(['0', '1'], 'allow_msi must be 0 or 1'),
    include_msi: yup.string().oneOf(['0', '1'], 'include_msi must be 0 or 1'),
    events: yup.string().oneOf(['0', '1'], 'events must be 0 or 1'),
  })
  .noUnknown('Unknown query parameter: ${unknown}');

export const integrationNewQuerySchema = yup
  .object({
    integration_type: yup.string().required('integration_type is required'),
    remote: yup.string().oneOf(['true', 'false', '0', '1', ''], 'remote must be true or false'),
  })
  .noUnknown('Unknown query parameter: ${unknown}');

/** JOB-072: integration error text wrapped at 30 characters (breaks at spaces; longer words are cut). */
export function wrapErrorText(text: string, width = 30): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let w = word; w; ) {
      const room = line ? width - line.length - 1 : width;
      if (w.length <= room) {
        line = line ? `${line} ${w}` : w;
        w = '';
      } else if (line) {
        lines.push(line);
        line = '';
      } else {
        lines.push(w.slice(0, width));
        w = w.slice(width);
      }
    }
  }
  if (line) lines.push(line);
  return lines;
}
