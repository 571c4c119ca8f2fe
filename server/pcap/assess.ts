/**
 * Turns an analysis into what the PCAP upload record and its conversations show: the spec's flags,
 * the status text, and notifications that say precisely what was wrong or what was changed.
 */
import type { Analysis } from './analyze';
import { Anonymizer, type AddressMapping } from './anonymize';
import type { ConversationRow } from './conversations';
import { ENCAP_NAMES, LINKTYPE_NAMES } from './decode';
import { conversationService } from './services';

import { PCAP_STATUS, PCAP_TCP_OR_UDP_MESSAGE, type PcapConversation, type PcapNotification, type PcapUploadFlags } from '../../src/api/contracts/pcap';

export const STATUS_COMPLETE = PCAP_STATUS.completed;
export const STATUS_INVALID = PCAP_STATUS.invalid;
export const STATUS_TOO_MANY_IPS = PCAP_STATUS.tooManyIps;
export const TCP_OR_UDP_MESSAGE = PCAP_TCP_OR_UDP_MESSAGE;

export type Notification = PcapNotification;
export type UploadFlags = PcapUploadFlags;

/**
 * A conversation as stored and answered: the contract's fields (spec fields first, then tshark's
 * statistics, all present here), its row number in order of appearance (0-based; the database id is
 * separate) instead of the id, and the original (not anonymized) addresses, kept for re-processing.
 */
export type ConversationRecord = Required<Omit<PcapConversation, 'id'>> & {
  index: number;
  orig_source_address: string;
  orig_dest_address: string;
};

export interface Assessment {
  status: string;
  flags: UploadFlags;
  /** Everything to show: about the capture, then about the conversations. */
  notifications: Notification[];
  /** About the capture only (stored; the rest follows the remaining conversations). */
  captureNotifications: Notification[];
  conversations: ConversationRecord[];
  /** The address mapping (always computed, in order of appearance; applied when anonymizing). */
  mapping: AddressMapping;
  summary: {
    format: string | null;
    packets: number;
    conversationFrames: number;
    linkTypes: number[];
    nanosecond: boolean;
    hasFragments: boolean;
    truncated: boolean;
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** ISO 8601 UTC with the capture's full (nanosecond) precision. */
export function isoTime(sec: number, nsec: number): string {
  if (sec !== lastIsoSec) {
    const d = new Date(sec * 1000);
    if (Number.isNaN(d.getTime())) return new Date(0).toISOString();
    lastIsoSec = sec;
    lastIsoBase = d.toISOString().slice(0, 19);
  }
  return `${lastIsoBase}.${String(nsec).padStart(9, '0')}Z`;
}

/** The last second isoTime formatted (conversations in order of appearance share seconds). */
let lastIsoSec = NaN;
let lastIsoBase = '';

export function isBroadcast(addr: string): boolean {
  return !addr.includes(':') && addr.endsWith('.255');
}

export function isMulticast(addr: string): boolean {
  if (addr.includes(':')) return addr.toLowerCase().startsWith('ff');
  const first = Number(addr.split('.')[0]);
  return first >= 224 && first <= 239;
}

function listMap(m: Map<string, number>): string {
  return [...m].map(([k, n]) => `${k} ${n}`).join(', ');
}

export interface AssessOptions {
  anonymizeIp: boolean;
  anonymizeMac: boolean;
}

export function assess(a: Analysis, opts: AssessOptions): Assessment {
  const n: Notification[] = [];
  const r = a.reader;
  const c = a.counts;
  let invalid = false;

  if (r.error && r.packets === 0) {
    invalid = true;
    n.push({ level: 'error', message: r.error });
  } else if (r.error) {
    n.push({ level: 'warning', message: r.error });
  }
  for (const note of r.notes) n.push({ level: note.startsWith('Skipped') ? 'info' : 'warning', message: note });

  for (const [lt, count] of c.unsupportedLink) {
    n.push({ level: 'warning', message: `Link type ${lt} is not supported: ${plural(count, 'packet')} removed.` });
  }
  const nonIp = [...c.nonIp.values()].reduce((s, x) => s + x, 0);
  if (nonIp > 0) n.push({ level: 'info', message: `Removed ${plural(nonIp, 'non-IP frame')} (${listMap(c.nonIp)}).` });
  const other = [...c.ipOther.values()].reduce((s, x) => s + x, 0);
  if (other > 0) n.push({ level: 'info', message: `Removed ${plural(other, 'IP packet')} that ${other === 1 ? 'is' : 'are'} neither TCP nor UDP (${listMap(c.ipOther)}).` });
  for (const [reason, e] of c.malformed) {
    n.push({ level: 'warning', message: `Removed ${plural(e.count, 'packet')} that could not be decoded: ${reason} (first: packet ${e.firstFrame}).` });
  }
  if (c.incompleteDatagrams > 0) {
    n.push({ level: 'warning', message: `${plural(c.incompleteDatagrams, 'fragmented IP datagram')} never completed; ${c.incompleteDatagrams === 1 ? 'its' : 'their'} fragments are left out.` });
  }

  const rows = a.rows;
  if (!invalid && rows.length === 0) {
    invalid = true;
    n.push({ level: 'error', message: r.packets === 0 ? 'The capture holds no packets.' : `None of the ${plural(r.packets, 'packet')} belongs to a TCP or UDP conversation.` });
  }

  // Layer 2 and conversion.
  const linkTypes = [...c.conversationLinkTypes.keys()];
  const layer2 = linkTypes.length > 0 && linkTypes.every((lt) => lt === 1);
  for (const [lt, count] of c.conversationLinkTypes) {
    if (lt !== 1) n.push({ level: 'info', message: `Added Ethernet headers to ${plural(count, 'packet')} captured without them (link type ${lt}, ${LINKTYPE_NAMES[lt] ?? 'unknown'}).` });
  }
  const byEncap = new Map<string, number>();
  for (const [bits, count] of c.decapsulated) {
    for (const [bit, name] of ENCAP_NAMES) if (bits & bit) byEncap.set(name, (byEncap.get(name) ?? 0) + count);
  }
  if (byEncap.size) n.push({ level: 'info', message: `Removed the encapsulation of ${plural([...c.decapsulated.values()].reduce((x, y) => x + y, 0), 'packet')} (${listMap(byEncap)}); the Action replays the inner IP traffic.` });
  const converted = !invalid && (r.format !== 'pcap' || r.bigEndian || linkTypes.some((lt) => lt !== 1) || c.decapsulated.size > 0);
  if (converted && r.format === 'pcapng') n.push({ level: 'info', message: 'Converted the pcapng capture to pcap.' });
  else if (converted && r.bigEndian) n.push({ level: 'info', message: 'Converted the big-endian pcap to little-endian.' });
  const stripped = c.vlanTagged > 0;
  if (stripped) {
    n.push({ level: 'info', message: `Stripped VLAN tags from ${plural(c.vlanTagged, 'packet')} (VLAN ${[...c.vlanIds].sort((x, y) => x - y).join(', ')}).` });
  }

  // Addresses, in order of appearance, and their anonymized replacements.
  const anon = new Anonymizer();
  for (const row of rows) {
    anon.ipText(row.addressA);
    anon.ipText(row.addressB);
  }
  for (const row of rows) {
    if (row.macA) anon.macText(row.macA);
    if (row.macB) anon.macText(row.macB);
  }
  const ipShown = (x: string) => (opts.anonymizeIp ? anon.ipText(x) : x);

  const conversations: ConversationRecord[] = rows.map((row) => toRecord(row, ipShown));
  if (!invalid && opts.anonymizeIp) {
    n.push({ level: 'info', message: `Anonymized ${plural(anon.ipPairs.length, 'IP address', 'IP addresses')} (IPv4 into 10.0.0.0/8, IPv6 into fd00::/64); checksums are recomputed.` });
  }
  if (!invalid && opts.anonymizeMac) {
    n.push({ level: 'info', message: `Anonymized MAC addresses into locally administered 02:00:00:00:00:00 addresses${layer2 ? '' : ' (including the added Ethernet headers)'}.` });
  }
  const state = conversationState(conversations);
  const status = invalid ? STATUS_INVALID : state.status;
  return {
    status,
    flags: {
      valid_upload: !invalid,
      has_two_ips: state.hasTwoIps,
      contains_udp: state.hasUdp,
      remove_non_ip_info: nonIp > 0 || other > 0 || c.unsupportedLink.size > 0,
      converted,
      stripped_vlan_tags: stripped,
      anonymized_ip: opts.anonymizeIp,
      anonymized_mac: opts.anonymizeMac,
      layer_2_exists: layer2,
    },
    notifications: invalid ? n : [...n, ...state.notifications],
    captureNotifications: n,
    conversations,
    mapping: anon.mapping,
    summary: {
      format: r.format,
      packets: r.packets,
      conversationFrames: c.conversation,
      linkTypes,
      nanosecond: r.nanosecond,
      hasFragments: c.fragments > 0,
      truncated: r.truncation !== null,
    },
  };
}

export function toRecord(row: ConversationRow, ipShown: (x: string) => string = (x) => x): ConversationRecord {
  const relStart = row.relStart[0] + row.relStart[1] / 1e9;
  const relStop = row.relStop[0] + row.relStop[1] / 1e9;
  const frames = row.framesAtoB + row.framesBtoA;
  let info = row.info ?? '';
  if (!info && row.protocol === 'tcp') {
    const state = [row.sawSyn ? 'SYN' : '', row.sawSynAck ? 'SYN/ACK' : '', row.sawFin ? 'FIN' : '', row.sawRst ? 'RST' : ''].filter(Boolean).join(', ');
    info = `${plural(frames, 'frame')}${state ? `; ${state}` : '; no handshake seen'}`;
  } else if (!info) info = plural(frames, 'datagram');
  return {
    index: row.index,
    timestamp: isoTime(row.startSec, row.startNsec),
    source_address: ipShown(row.addressA),
    dest_address: ipShown(row.addressB),
    protocol: row.protocol,
    service: conversationService(row.protocol, row.portA, row.portB),
    source_port: row.portA,
    dest_port: row.portB,
    data_size: row.bytesAtoB + row.bytesBtoA,
    info,
    missed_bytes: row.missedBytes,
    frames_a_to_b: row.framesAtoB,
    bytes_a_to_b: row.bytesAtoB,
    frames_b_to_a: row.framesBtoA,
    bytes_b_to_a: row.bytesBtoA,
    rel_start: relStart,
    duration: relStop - relStart,
    orig_source_address: row.addressA,
    orig_dest_address: row.addressB,
  };
}

export type ConversationFacts = Pick<ConversationRecord, 'index' | 'source_address' | 'dest_address' | 'orig_source_address' | 'orig_dest_address' | 'protocol'>;

/**
 * What the (remaining) conversations mean for an Action: the status (more than two unique IPs is an
 * error), the flags that follow them, and warnings: TCP and UDP together, broadcast and multicast
 * destinations.
 */
export function conversationState(convs: readonly ConversationFacts[]): { status: string; hasTwoIps: boolean; hasTcp: boolean; hasUdp: boolean; uniqueIps: string[]; notifications: Notification[] } {
  const notifications: Notification[] = [];
  const unique = new Map<string, string>();
  for (const c of convs) {
    unique.set(c.orig_source_address, c.source_address);
    unique.set(c.orig_dest_address, c.dest_address);
  }
  if (unique.size > 2) {
    const shown = [...unique.values()].slice(0, 10);
    notifications.push({
      level: 'error',
      message: `The conversations involve ${unique.size} unique IP addresses (${shown.join(', ')}${unique.size > 10 ? ', ...' : ''}); an Action replays traffic between two only. Remove the conversations of the others.`,
    });
  }
  const hasTcp = convs.some((x) => x.protocol === 'tcp');
  const hasUdp = convs.some((x) => x.protocol === 'udp');
  if (hasTcp && hasUdp) notifications.push({ level: 'warning', message: TCP_OR_UDP_MESSAGE });
  notifications.push(...destinationWarnings(convs));
  return {
    status: unique.size > 2 ? STATUS_TOO_MANY_IPS : STATUS_COMPLETE,
    hasTwoIps: unique.size > 0 && unique.size <= 2,
    hasTcp,
    hasUdp,
    uniqueIps: [...unique.values()],
    notifications,
  };
}

/** Warnings for broadcast and multicast destinations (the traffic will be converted to unicast). */
export function destinationWarnings(conversations: readonly Pick<ConversationRecord, 'index' | 'dest_address' | 'orig_dest_address'>[]): Notification[] {
  const out: Notification[] = [];
  for (const cv of conversations) {
    const addr = cv.orig_dest_address;
    if (isBroadcast(addr)) out.push({ level: 'warning', message: `Conversation ${cv.index + 1}: destination ${cv.dest_address} is a broadcast address; the traffic will be converted to unicast.` });
    else if (isMulticast(addr)) out.push({ level: 'warning', message: `Conversation ${cv.index + 1}: destination ${cv.dest_address} is a multicast address; the traffic will be converted to unicast.` });
  }
  return out;
}
