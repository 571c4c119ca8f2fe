import type { ActionDetailsByType, ActionType, DimensionType, EmailFileDetails, HostCliFileDetails } from './types';

/** Lookups a catalog entry's details may need (ids are only known when the data set is built). */
export interface DetailContext {
  fileId(name: string): number;
  profileId(friendlyName: string): number;
}

interface EntryBase {
  /** Stable slug that simulations use to refer to the entry. */
  key: string;
  name: string;
  description: string;
  /** ATT&CK technique codes, also attached as mitre_attack tags. */
  techniques: string[];
  /** Other tags by name (verodin or user). */
  tags?: string[];
  /** Dimension node names by type; missing types are filled from the type defaults. */
  dims?: Partial<Record<DimensionType, string>>;
  /** Attached files by orig_file_name, in order. */
  files?: string[];
  /** Cloud only: the variable_name of each attached file, in the order of files. */
  fileVariables?: string[];
  /** Vendor content: VID starts with A1 and the Action cannot be edited. */
  vendor?: boolean;
  timeout_ms?: number;
  require_protected?: boolean;
  monitor_connections?: boolean;
  uac?: boolean;
  notes?: string;
}

export type CatalogEntry = {
  [K in ActionType]: EntryBase & { type: K; details: ActionDetailsByType[K] | ((c: DetailContext) => ActionDetailsByType[K]) };
}[ActionType];

export function resolveDetails(entry: CatalogEntry, ctx: DetailContext): ActionDetailsByType[ActionType] {
  return typeof entry.details === 'function' ? entry.details(ctx) : entry.details;
}

/** One host_cli command in the form's syntax: the command, its prompt/sleep/logs/timeout line, then conditions. */
export function cmd(line: string, conditions: string[], opts: { sleep?: number; timeout?: number; logs?: boolean } = {}): string {
  const head = `    auto ${opts.sleep ?? 4} ${opts.logs ?? true} ${opts.timeout ?? 60}`;
  return [line, head, ...conditions.map((c) => `    ${c}`)].join('\n');
}

export function script(...commands: string[]): string {
  return commands.join('\n');
}

export const HOST_FILE_DEFAULT: HostCliFileDetails = {
  destination_directory: 'C:/users/public/documents/',
  destination_name: '',
  file_owner: 'match_action',
  randomize_file: false,
};

export const EMAIL_FILE_DEFAULT: EmailFileDetails = { attachment_encoding: 'base64', ignore_if_missing: false };
