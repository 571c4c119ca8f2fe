/**
 * One PCAP upload row as the upload and inspect routes read it, and the lookup that hides someone
 * else's upload. Shared by routes/upload.ts and routes/pcap-inspect.ts (which upload.ts registers),
 * so neither route module imports the other.
 */
import type { ActiveSession } from '../auth/sessions';
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import type { PcapCaptureRow, PcapNotification } from '../../src/api/contracts/pcap';
import type { AddressMapping } from './anonymize';

export interface UploadRow {
  id: number;
  user_id: number | null;
  orig_filename: string;
  status: string;
  percent_complete: number;
  bytes_read: number;
  size: number;
  pcap_library_id: number | null;
  valid_upload: boolean;
  has_two_ips: boolean;
  contains_udp: boolean;
  remove_non_ip_info: boolean;
  converted: boolean;
  stripped_vlan_tags: boolean;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
  layer_2_exists: boolean;
  notifications: PcapNotification[];
  summary: Record<string, unknown>;
  mapping: AddressMapping;
  action_id: number | null;
}

const UPLOAD_COLUMNS = `id, user_id, orig_filename, status, percent_complete, bytes_read::float8 as bytes_read, size::float8 as size, pcap_library_id,
  valid_upload, has_two_ips, contains_udp, remove_non_ip_info, converted, stripped_vlan_tags, anonymized_ip, anonymized_mac,
  layer_2_exists, notifications, summary, mapping, action_id`;

export const SELECT_UPLOAD = `select ${UPLOAD_COLUMNS} from pcap_uploads where id = $1`;

export async function loadUpload(db: Db, id: number, session: ActiveSession): Promise<UploadRow> {
  const [row] = await db.query<UploadRow>(SELECT_UPLOAD, [id]);
  // Someone else's upload that is not (yet) an Action's capture does not exist for this user.
  if (!row || (row.user_id !== session.user.id && row.action_id === null && session.user.role !== 'admin')) {
    throw notFound(`PCAP upload ${id} does not exist.`);
  }
  return row;
}

/**
 * The captures `session`'s user may open, newest first: their own uploads, every Action's capture, and
 * all of them for an administrator (as `loadUpload` allows); `q` finds a file name, an Action's VID or
 * the id.
 */
export async function listCaptures(db: Db, session: ActiveSession, q: string, limit: number): Promise<PcapCaptureRow[]> {
  return db.query<PcapCaptureRow>(
    `select u.id, u.orig_filename, u.status, u.pcap_library_id is not null as stored, a.vid as action_vid
       from pcap_uploads u left join actions a on a.id = u.action_id
      where (u.user_id = $1 or u.action_id is not null or $2)
        and ($3 = '' or strpos(lower(u.orig_filename), $3) > 0 or strpos(lower(coalesce(a.vid, '')), $3) > 0 or u.id::text = $3)
      order by u.id desc
      limit $4`,
    [session.user.id, session.user.role === 'admin', q.toLowerCase(), limit],
  );
}

