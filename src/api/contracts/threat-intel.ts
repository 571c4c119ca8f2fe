/**
 * Threat-intel sources (the integrations menu's threat-intel integrations, JOB-029: creation loads
 * /threat_intel_integrations/new.js?integration_type={name}). The spec names the call and nothing else
 * (no kinds, no fields): the kinds and fields here are Vigil's design (docs/api.md, "Threat-intel
 * sources"). A source is a feed the operator keeps on record: its kind, the URL of its API, an API key
 * kept write-only and encrypted at rest (like run-as secrets), and whether it is enabled.
 */
import * as yup from 'yup';

export const THREAT_INTEL_KINDS = [
  {
    type: 'misp',
    label: 'MISP',
    logo: '/logos/misp.svg',
    keyRequired: true,
    placeholder: 'https://misp.example.org',
    description: "A MISP instance's REST API (events and attributes). The API key is a MISP user's auth key, sent in the Authorization header.",
  },
  {
    type: 'opencti',
    label: 'OpenCTI',
    logo: '/logos/opencti.svg',
    keyRequired: true,
    placeholder: 'https://opencti.example.org/graphql',
    description: "An OpenCTI platform's GraphQL API. The API key is a user's token, sent as a Bearer token.",
  },
  {
    type: 'taxii21',
    label: 'STIX/TAXII 2.1',
    logo: '/logos/taxii.svg',
    keyRequired: false,
    placeholder: 'https://taxii.example.org/api1/collections/{id}/',
    description: 'A TAXII 2.1 collection of STIX 2.1 objects (an API root or a collection URL). Open collections need no key; otherwise it is sent as a Bearer token.',
  },
  {
    type: 'otx',
    label: 'AlienVault OTX',
    logo: '/logos/otx.svg',
    keyRequired: true,
    placeholder: 'https://otx.alienvault.com',
    description: "AlienVault Open Threat Exchange's pulses API. The API key is your OTX key, sent in the X-OTX-API-KEY header.",
  },
] as const;
export const THREAT_INTEL_TYPES: readonly string[] = THREAT_INTEL_KINDS.map((k) => k.type);
export const threatIntelKind = (type: string) => THREAT_INTEL_KINDS.find((k) => k.type === type);

/** A threat-intel source as every call answers it: never its key, only whether one is kept. */
export interface ThreatIntelSource {
  id: number;
  name: string;
  kind: string;
  brand_name: string;
  logo_path: string;
  url: string;
  enabled: boolean;
  /** Whether an (encrypted) API key is kept for this source. */
  has_api_key: boolean;
  created_at: string;
  updated_at: string;
}

/** A kind the integrations menu offers under "Threat intel". */
export interface ThreatIntelTemplate {
  type: string;
  name: string;
  logo_path: string;
  api_key_required: boolean;
}

/** GET /threat_intel_integrations.json */
export interface ThreatIntelAnswer {
  data: ThreatIntelSource[];
  available: ThreatIntelTemplate[];
}

/** GET /threat_intel_integrations/new.js?integration_type={name}: what the creation modal shows. */
export interface ThreatIntelNewForm {
  integration_type: string;
  title: string;
  brand_name: string;
  logo_path: string;
  description: string;
  /** The proposed name (the kind's label, numbered when taken). */
  name: string;
  url_placeholder: string;
  api_key_required: boolean;
}

export const threatIntelNewQuerySchema = yup
  .object({ integration_type: yup.string().required('integration_type is required') })
  .noUnknown('Unknown query parameter: ${unknown}');

/** An http(s) URL without credentials (the key has its own, encrypted field). */
const url = yup
  .string()
  .trim()
  .max(2000, 'URL is at most 2000 characters')
  .label('URL')
  .test('http-url', 'URL must be an http:// or https:// address', (v) => {
    if (!v) return true;
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname;
    } catch {
      return false;
    }
  })
  .test('no-credentials', 'URL must not carry a user name or password: put the key in API key', (v) => {
    if (!v) return true;
    try {
      const u = new URL(v);
      return !u.username && !u.password;
    } catch {
      return true;
    }
  });
const name = yup.string().trim().max(120, 'Name is at most 120 characters').label('Name');
const apiKey = yup.string().trim().max(4096, 'API key is at most 4096 characters').label('API key (kept encrypted, never shown)');

export const threatIntelCreateSchema = yup
  .object({
    name: name.required('Name is required'),
    kind: yup
      .string()
      .required('Kind is required')
      .oneOf([...THREAT_INTEL_TYPES], `Kind must be one of ${THREAT_INTEL_TYPES.join(', ')}`)
      .label('Kind'),
    url: url.required('URL is required'),
    api_key: apiKey.optional(),
    enabled: yup.boolean().optional(),
  })
  .noUnknown('Unknown field: ${unknown}')
  .test('key-required', function (v) {
    const kind = v?.kind ? threatIntelKind(v.kind) : undefined;
    if (kind?.keyRequired && !v?.api_key) return this.createError({ path: 'api_key', message: `${kind.label} needs an API key` });
    return true;
  });
export type ThreatIntelCreate = yup.InferType<typeof threatIntelCreateSchema>;

/** An update changes what it names; `api_key` replaces the kept key, `clear_api_key` removes it. */
export const threatIntelUpdateSchema = yup
  .object({
    name: name.optional().min(1, 'Name is required'),
    url: url.optional().min(1, 'URL is required'),
    api_key: apiKey.optional(),
    clear_api_key: yup.boolean().optional(),
    enabled: yup.boolean().optional(),
  })
  .noUnknown('Unknown field: ${unknown}')
  .test('something', 'Nothing to change: give name, url, api_key, clear_api_key or enabled.', (v) => Object.values(v ?? {}).some((x) => x !== undefined))
  .test('one-key', 'Give either a new api_key or clear_api_key, not both.', (v) => !(v?.api_key && v?.clear_api_key));
export type ThreatIntelUpdate = yup.InferType<typeof threatIntelUpdateSchema>;
