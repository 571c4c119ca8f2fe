/** The answers of the PCAP upload calls: an upload row and its conversations as the client sees them (pure). */
import type { PcapConversation, PcapUploadRecord } from '../../src/api/contracts/pcap';
import { conversationState, type ConversationRecord } from './assess';
import type { UploadRow } from './uploads';

export interface ConversationRow extends ConversationRecord {
  id: number;
  conv_index: number;
}

/** The conversation state (IPs, TCP/UDP, notifications) of the remaining conversations. */
export const stateOf = (conversations: readonly ConversationRow[]) => conversationState(conversations.map((c) => ({ ...c, index: c.conv_index })));

export function conversationAnswer(c: ConversationRow, details: boolean): PcapConversation {
  const base: PcapConversation = {
    id: c.id,
    timestamp: c.timestamp,
    source_address: c.source_address,
    dest_address: c.dest_address,
    protocol: c.protocol,
    service: c.service,
    source_port: c.source_port,
    dest_port: c.dest_port,
    data_size: c.data_size,
    info: c.info,
    missed_bytes: c.missed_bytes,
  };
  if (!details) return base;
  return {
    ...base,
    frames_a_to_b: c.frames_a_to_b,
    bytes_a_to_b: c.bytes_a_to_b,
    frames_b_to_a: c.frames_b_to_a,
    bytes_b_to_a: c.bytes_b_to_a,
    rel_start: c.rel_start,
    duration: c.duration,
  };
}

export function uploadAnswer(u: UploadRow, conversations: ConversationRow[] | null): PcapUploadRecord {
  // Notifications about the capture are stored; those about the remaining conversations follow them.
  const finished = u.percent_complete >= 100;
  const dynamic = finished && u.valid_upload && conversations ? stateOf(conversations).notifications : [];
  const s = u.summary;
  return {
    id: u.id,
    orig_filename: u.orig_filename,
    pcap_library_id: u.pcap_library_id,
    valid_upload: u.valid_upload,
    has_two_ips: u.has_two_ips,
    contains_udp: u.contains_udp,
    remove_non_ip_info: u.remove_non_ip_info,
    converted: u.converted,
    stripped_vlan_tags: u.stripped_vlan_tags,
    anonymized_ip: u.anonymized_ip,
    anonymized_mac: u.anonymized_mac,
    layer_2_exists: u.layer_2_exists,
    status: u.status,
    percent_complete: u.percent_complete,
    notifications: [...u.notifications, ...dynamic],
    action_id: u.action_id,
    summary: {
      format: (s.format as 'pcap' | 'pcapng' | null | undefined) ?? null,
      packets: typeof s.packets === 'number' ? s.packets : 0,
      conversation_frames: typeof s.conversationFrames === 'number' ? s.conversationFrames : 0,
      link_types: Array.isArray(s.linkTypes) ? (s.linkTypes as number[]) : [],
      size: u.size,
    },
  };
}
