/**
 * The Actors pane and its director calls (monitors-actors-reporting.md sections 2, 3, 4, 7 and 9):
 * bulk registration tokens, their pending actors, the actors table and the installer options.
 */
import * as yup from 'yup';

/** Section 9: the bulk table refreshes every 5000 ms, the pending list every 2000 ms while expanded. */
export const BULK_REFRESH_MS = 5000;
export const PENDING_REFRESH_MS = 2000;
/**
 * MON-185: the Actors pane's re-poll time limit, in minutes (the spec does not show the value). After an
 * hour of refreshing both tables stop until the user resumes them (actors.resumeRefresh).
 */
export const ACTORS_REPOLL_LIMIT_MIN = 60;

export type BulkTokenStatus = 'Active' | 'Expired' | 'Errored';
export type BulkTokenAction = 'installer' | 'pending' | 'register_push' | 'download' | 'clear';

export interface BulkTokenRow {
  id: number;
  name: string;
  status: BulkTokenStatus;
  status_details: string | null;
  /** Actors registered with the token that have not called in since (see pendingRule in docs/api.md). */
  active_pending: number;
  /** Every actor registered with the token. */
  registered: number;
  created_at: string;
  expires_at: string;
  created_by: string | null;
  links: { pending: string; csv: string; delete: string; register_push: string; installer: string };
  /** What the signed-in user may do with the row. */
  actions: BulkTokenAction[];
}

export interface ActorRow {
  id: number;
  name: string;
  friendly_name: string;
  node_version: string;
  os_base: string;
  os: string;
  node_type: string;
  status: string;
  status_details: string | null;
  security_zone_id: number | null;
  zone_name: string | null;
  sandbox_node_id: number | null;
  username: string;
  user_tags: string[];
  /** 1 while the actor has registered and not called in since, else 0. */
  active_pending: number;
  bulk_token_id: number | null;
  last_heartbeat_at: string | null;
  links: { edit: string };
}

export interface PendingNode {
  id: number;
  name: string;
  /** 'pending' (registered, has not called in yet) or the status the director gave it since ('offline'). */
  status: string;
  status_details: string | null;
  registered_at: string;
}

/** GET /actors/tables.json: an object keyed by table type with data arrays (MON-128). */
export interface ActorTables {
  bulk: { data: BulkTokenRow[] };
  nodes: { data: ActorRow[] };
}

export interface CreatedBulkToken {
  id: number;
  token: string;
  expires_at: string;
}

export interface BulkTokenInput {
  name: string;
  hours: number;
}

export const bulkTokenCreateSchema: yup.ObjectSchema<BulkTokenInput> = yup
  .object({
    name: yup.string().trim().max(100, 'Name must be at most 100 characters').default(''),
    hours: yup
      .number()
      .typeError('Hours must be a number')
      .integer('Hours must be a whole number')
      .min(1, 'Hours must be at least 1')
      .max(24 * 30, 'Hours must be at most 720')
      .default(24),
  })
  .noUnknown();

export const INSTALLER_OSES = ['windows', 'macos', 'linux'] as const;
export type InstallerOs = (typeof INSTALLER_OSES)[number];

/** Section 9: Windows, macOS, Linux with download kinds exe, app and sh. */
export const INSTALLER_KINDS: Record<InstallerOs, { label: string; kind: 'exe' | 'app' | 'sh' }> = {
  windows: { label: 'Windows', kind: 'exe' },
  macos: { label: 'macOS', kind: 'app' },
  linux: { label: 'Linux', kind: 'sh' },
};

/** One box of the Download Actor Installer modal (MON-048: os, selected_command, deselected_command, url). */
export interface InstallerOption {
  os: InstallerOs;
  label: string;
  /** The spec's download kind for this OS. */
  kind: 'exe' | 'app' | 'sh';
  /** The file offered (a shell script), or null when this director cannot produce an installer for the OS. */
  url: string | null;
  file: string | null;
  /** The command to run with the self-signed box ticked (certificates not verified) and unticked (verified). */
  selected_command: string | null;
  deselected_command: string | null;
  /** What the box says about this OS (why there is no exe/app, what the script needs). */
  message: string;
}

/** GET /nodes/new.js?node_type=bulk&id={id}: how to register an actor with the token (Register Push). */
export interface RegisterPush {
  bulk_token_id: number;
  name: string;
  status: BulkTokenStatus;
  director: string;
  command: string;
  notes: string[];
}

/** MON-117: unticking the self-signed box adds ?secure=1 to the link. */
export const installerLink = (url: string, selfSigned: boolean): string => (selfSigned ? url : `${url}${url.includes('?') ? '&' : '?'}secure=1`);

/** The placeholder the commands show where the token's secret goes (the director keeps only its hash). */
export const TOKEN_PLACEHOLDER = '<BULK_TOKEN>';

/** The command line that starts this project's actor against a director with a bulk token. */
export const actorCommand = (director: string, token: string) => `VIGIL_BULK_TOKEN=${token} npm run actor -- --director ${director} --name "$(hostname)" --address <ACTOR_IP>`;
