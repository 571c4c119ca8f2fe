/**
 * The security lab (`npm run lab`, server/lab/): what the lab tells the director when it comes up
 * (POST /lab/setups.json), and the answers. Only administrators (users.manage) call these.
 */
import * as yup from 'yup';

/** A lab's name prefix: its namespaces, director records and files all start with it. */
export const LAB_PREFIX = /^[a-z][a-z0-9-]{0,15}$/;
export const LAB_PREFIX_MESSAGE = 'The lab prefix is 1 to 16 lowercase letters, digits or dashes, starting with a letter';
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const CIDR = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}\/([0-9]|[12]\d|3[0-2])$/;

const name = yup.string().trim().required('A zone name is required').matches(/^[a-z][a-z0-9-]{0,15}$/, 'A zone name is 1 to 16 lowercase letters, digits or dashes');

export const labSetupSchema = yup
  .object({
    prefix: yup.string().required('prefix is required').matches(LAB_PREFIX, LAB_PREFIX_MESSAGE),
    events_path: yup.string().trim().required('events_path is required').matches(/^\//, 'events_path must be an absolute path').max(1000),
    zones: yup
      .array(
        yup
          .object({
            name,
            cidr: yup.string().required('A zone cidr is required').matches(CIDR, 'A zone cidr is an IPv4 network such as 10.77.1.0/24'),
            gateway: yup.string().required('A zone gateway is required').matches(IPV4, 'A zone gateway is an IPv4 address'),
          })
          .noUnknown(),
      )
      .required('zones are required')
      .min(1, 'A lab has at least one zone')
      .max(8, 'A lab has at most 8 zones'),
  })
  .noUnknown('Unknown field: ${unknown}');
export type LabSetupRequest = yup.InferType<typeof labSetupSchema>;

export interface LabSetupAnswer {
  prefix: string;
  /** The bulk registration token of the lab's actors (shown once; named "lab:<prefix>"). */
  bulk_token: string;
  integration_id: number;
  device_id: number;
  zone_ids: Record<string, number>;
}

export interface LabActor {
  id: number;
  name: string;
  sim_address: string;
  status: string;
  zone: string | null;
}

export interface LabRemoval {
  prefix: string;
  actors: number;
  zones: number;
  links: number;
  devices: number;
  tokens: number;
}

export const labPrefixParam = yup.object({ prefix: yup.string().required().matches(LAB_PREFIX, LAB_PREFIX_MESSAGE) });
