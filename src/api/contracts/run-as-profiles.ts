/**
 * Run-as user profiles (/action_user_profiles): the accounts a host_cli Action runs as on an actor
 * (monitors-actors-reporting.md section 3 "Run-as-user": id, friendly_name, username). The secret is
 * write-only: it is sent on create or update and never answered; rows say only whether one is kept.
 */
import * as yup from 'yup';

export interface RunAsProfile {
  id: number;
  friendly_name: string;
  username: string;
  /** Whether an (encrypted) secret is kept for this profile. */
  has_secret: boolean;
  /** Actions that run as this profile. */
  action_count: number;
  created_at: string;
  updated_at: string;
}

/** A local or domain account: `user`, `DOMAIN\user`, `.\user` (this machine) or `user@domain`; a trailing $ names a machine account. */
export const RUN_AS_USERNAME = /^(?:(?:\.|[A-Za-z0-9][A-Za-z0-9._-]{0,62})\\)?[A-Za-z_][A-Za-z0-9_.-]{0,63}\$?(?:@[A-Za-z0-9][A-Za-z0-9.-]{0,252})?$/;

const friendlyName = yup.string().trim().max(100, 'Friendly name is at most 100 characters').label('Friendly name');
const username = yup
  .string()
  .trim()
  .max(320, 'Username is at most 320 characters')
  .matches(RUN_AS_USERNAME, { message: 'Username must be an account name such as alice, CORP\\alice or alice@corp.example', excludeEmptyString: true })
  .label('Username');
const secret = yup.string().max(1024, 'Password is at most 1024 characters').label('Password (kept encrypted, never shown)');

export const runAsProfileCreateSchema = yup
  .object({
    friendly_name: friendlyName.required('Friendly name is required'),
    username: username.required('Username is required'),
    secret: secret.optional(),
  })
  .noUnknown('Unknown field: ${unknown}');
export type RunAsProfileCreate = yup.InferType<typeof runAsProfileCreateSchema>;

/** An update changes what it names; `secret` replaces the kept one, `clear_secret` removes it. */
export const runAsProfileUpdateSchema = yup
  .object({
    friendly_name: friendlyName.optional().min(1, 'Friendly name is required'),
    username: username.optional().min(1, 'Username is required'),
    secret: secret.optional(),
    clear_secret: yup.boolean().optional(),
  })
  .noUnknown('Unknown field: ${unknown}')
  .test('something', 'Nothing to change: give friendly_name, username, secret or clear_secret.', (v) => Object.values(v ?? {}).some((x) => x !== undefined))
  .test('one-secret', 'Give either a new secret or clear_secret, not both.', (v) => !(v?.secret && v?.clear_secret));
export type RunAsProfileUpdate = yup.InferType<typeof runAsProfileUpdateSchema>;
