/**
 * Integrations: the security tools whose events the director matches to job actions. Three kinds
 * take events: a JSON webhook (POST /integrations/{id}/events with the integration's token), and two
 * that the director reads from a file it tails: Suricata EVE JSON and nftables/ulogd JSON (ulogd2's
 * JSON output of packets an nftables rule sent to NFLOG with `log group N prefix "..."`).
 */
import * as yup from 'yup';

export const INTEGRATION_KINDS = [
  { type: 'webhook', label: 'JSON webhook', tailsFile: false },
  { type: 'suricata_eve', label: 'Suricata EVE JSON', tailsFile: true },
  { type: 'nftables_ulogd_json', label: 'nftables/ulogd JSON', tailsFile: true },
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
