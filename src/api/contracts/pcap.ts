/**
 * PCAP ingestion: the upload record, conversations, packets of a stored capture, and the calls'
 * inputs and answers (actions.md: PCAP upload record, Conversation, sections 4, 5, 7, 8, 9).
 * Shared by the director (server/routes/upload.ts, server/routes/pcap-inspect.ts) and the workbench.
 */
import * as yup from 'yup';

/** Status texts (the spec's error texts verbatim). */
export const PCAP_STATUS = {
  uploading: 'Uploading',
  processing: 'Processing',
  completed: 'Completed',
  invalid: 'Error: Invalid PCAP - Please review Notifications below.',
  tooManyIps: 'Error: More than two unique IPs - Please review Notifications below.',
} as const;

export const PCAP_TCP_OR_UDP_MESSAGE =
  'Actions can only include either TCP or UDP traffic. Update the conversations as appropriate. If you need to execute both TCP & UDP traffic, create separate Actions and add both to a Sequence.';

/** The flash shown when an upload ends in an error status (section 8), followed by the status text. */
export const PCAP_UPLOAD_ERROR_FLASH_PREFIX = 'Warning! Validation errors kept this Action from saving successfully. ';
export const PCAP_UPLOAD_ERROR_FLASH_SUFFIX = 'Please see below.';

/** Section 9: status poll interval and the conversation table's columns and default sort. */
export const PCAP_STATUS_POLL_MS = 2000;
export const PCAP_CONVERSATION_COLUMNS = ['Timestamp', 'IP1', 'IP2', 'Proto', 'App', 'Port1', 'Port2', 'Data', 'Details'] as const;

export const isPcapErrorStatus = (status: string) => status.includes('Error');

export type PcapNotificationLevel = 'error' | 'warning' | 'info';
export interface PcapNotification {
  level: PcapNotificationLevel;
  message: string;
}

export interface PcapUploadFlags {
  valid_upload: boolean;
  /** No more than two unique IP addresses among the (remaining) conversations. */
  has_two_ips: boolean;
  contains_udp: boolean;
  /** Frames that are not TCP/UDP over IP (ARP, LLDP, ICMP, unsupported link types) were removed. */
  remove_non_ip_info: boolean;
  /** The stored capture differs in container or link type (pcapng -> pcap, big-endian, no Ethernet). */
  converted: boolean;
  stripped_vlan_tags: boolean;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
  /** Every conversation frame was captured with an Ethernet header. */
  layer_2_exists: boolean;
}

/** The PCAP upload record (spec fields, then status and what the director found). */
export interface PcapUploadRecord extends PcapUploadFlags {
  id: number;
  orig_filename: string;
  /** The stored capture's library id (Packet View: /manage_sims/pcaps/inspect/{pcap_library_id}). */
  pcap_library_id: number | null;
  status: string;
  percent_complete: number;
  notifications: PcapNotification[];
  /** The Action created from this upload, once there is one. */
  action_id: number | null;
  summary: PcapSummary;
}

export interface PcapSummary {
  format?: 'pcap' | 'pcapng' | null;
  packets?: number;
  conversation_frames?: number;
  link_types?: number[];
  size?: number;
}

/** A conversation (spec fields; with details=true also tshark's per-direction statistics). */
export interface PcapConversation {
  id: number;
  /** ISO 8601 UTC with nanoseconds: the conversation's first frame. */
  timestamp: string;
  /** Address A: the source of the conversation's first frame (tshark's first column). */
  source_address: string;
  dest_address: string;
  protocol: 'tcp' | 'udp';
  /** Service name of the well-known port (destination's first), '' when none. */
  service: string;
  source_port: number;
  dest_port: number;
  /** Frame bytes in both directions (tshark's Total Bytes). */
  data_size: number;
  info: string;
  missed_bytes: number;
  frames_a_to_b?: number;
  bytes_a_to_b?: number;
  frames_b_to_a?: number;
  bytes_b_to_a?: number;
  /** Seconds from the capture's first frame, and duration in seconds. */
  rel_start?: number;
  duration?: number;
}

export interface UploadPcapAnswer {
  data: { upload_id: number };
}

export interface CheckProcessStatusAnswer {
  data: { percent_complete: number; status: string; upload_id: number };
}

export interface ShowConversationsAnswer {
  data: { upload: PcapUploadRecord; conversations: PcapConversation[] };
  token: string;
}

export interface DestroyConversationsAnswer {
  data: { conversations: PcapConversation[]; upload: PcapUploadRecord };
}

export interface CreatePcapActionAnswer {
  id: number;
  vid: string;
  version: number;
  approved: boolean;
  notice: string;
  upload_id: number;
  pcap_library_id: number;
  packets: number;
  size: number;
}

const id = () => yup.number().typeError('must be a number').integer('must be a whole number').min(1, 'must be at least 1');

/** Form of POST /manage_sims/upload/destroy_conversations (conv_id[] or remove_tcp_or_udp). */
export const destroyConversationsSchema = yup
  .object({
    upload_id: id().required('upload_id is required'),
    action_type: yup.string().oneOf(['pcap', 'captive_ioc_pcap', ''], 'action_type must be pcap or captive_ioc_pcap').optional(),
    conv_id: yup.array(id().required()).max(100000).optional(),
    remove_tcp_or_udp: yup.string().oneOf(['tcp', 'udp'], 'remove_tcp_or_udp must be tcp or udp').optional(),
  })
  .test('one-of', 'Send either conv_id[] or remove_tcp_or_udp (tcp or udp).', (v) => (v.conv_id !== undefined) !== (v.remove_tcp_or_udp !== undefined));

// ---------------------------------------------------------------------------------------------
// Packet View

export interface PcapPacketSummary {
  /** 1-based packet number in the stored capture. */
  no: number;
  /** Seconds since the capture's first packet. */
  time: number;
  source: string;
  destination: string;
  protocol: string;
  /** Length on the wire. */
  length: number;
  summary: string;
}

export interface PcapPacketsAnswer {
  data: {
    pcap_library_id: number;
    orig_filename: string;
    /** 'processed' once an Action's capture was written, else the upload as received. */
    source: 'processed' | 'upload';
    total: number;
    offset: number;
    packets: PcapPacketSummary[];
  };
}

export interface PcapPacketBytesAnswer {
  data: { no: number; caplen: number; length: number; link_type: number; bytes_base64: string };
}

export const PCAP_PACKET_PAGE_MAX = 1000;

export const packetsQuerySchema = yup.object({
  offset: yup.number().typeError('offset must be a number').integer().min(0, 'offset must be at least 0').default(0),
  limit: yup.number().typeError('limit must be a number').integer().min(1, 'limit must be at least 1').max(PCAP_PACKET_PAGE_MAX, `limit must be at most ${PCAP_PACKET_PAGE_MAX}`).default(200),
});

/** One capture a user may open in the Packet View or edit the conversations of (a PCAP upload). */
export interface PcapCaptureRow {
  /** The upload's id: the Packet View's capture id and the conversation calls' upload_id. */
  id: number;
  orig_filename: string;
  status: string;
  /** Its capture is stored (the Packet View can show it). */
  stored: boolean;
  /** The VID of the PCAP Action made from it, if one was. */
  action_vid: string | null;
}

/** GET /manage_sims/pcaps.json?q=&limit=: the captures the user may open, newest first (a pick list's choices). */
export interface PcapCapturesAnswer {
  data: PcapCaptureRow[];
}

export const PCAP_CAPTURES_MAX = 50;

export const capturesQuerySchema = yup
  .object({
    q: yup.string().trim().max(100, 'q must be at most 100 characters').default(''),
    limit: yup.number().typeError('limit must be a number').integer('limit must be a whole number').min(1, 'limit must be at least 1').max(PCAP_CAPTURES_MAX, `limit must be at most ${PCAP_CAPTURES_MAX}`).default(20),
  })
  .noUnknown('Unknown parameter: ${unknown}');

