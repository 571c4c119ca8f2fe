import { http } from '@/api/http';
import type { DestroyConversationsAnswer, PcapCapturesAnswer, PcapPacketBytesAnswer, PcapPacketsAnswer, ShowConversationsAnswer } from '@/api/contracts/pcap';

export const PACKET_PAGE = 200;

export const packetsKey = (id: number, page: number) => ['pcap-packets', id, page] as const;
export const packetBytesKey = (id: number, no: number) => ['pcap-packet-bytes', id, no] as const;
export const conversationsKey = (uploadId: number) => ['pcap-conversations', uploadId] as const;

/** A page of packets of a stored capture (Packet View). */
export async function getPackets(id: number, page: number): Promise<PcapPacketsAnswer['data']> {
  const answer = await http.get<PcapPacketsAnswer>(`/manage_sims/pcaps/${id}/packets.json`, { params: { offset: page * PACKET_PAGE, limit: PACKET_PAGE } });
  return answer.data;
}

/** One packet's captured bytes. */
export async function getPacketBytes(id: number, no: number): Promise<{ no: number; caplen: number; length: number; linkType: number; bytes: Uint8Array }> {
  const { data } = await http.get<PcapPacketBytesAnswer>(`/manage_sims/pcaps/${id}/packets/${no}.json`);
  const bin = atob(data.bytes_base64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return { no: data.no, caplen: data.caplen, length: data.length, linkType: data.link_type, bytes };
}

/** Removes conversations of an upload by id, or all of one protocol. */
export async function destroyConversations(input: { upload_id: number; conv_id?: number[]; remove_tcp_or_udp?: 'tcp' | 'udp'; action_type?: string }): Promise<DestroyConversationsAnswer['data']> {
  const answer = await http.post<DestroyConversationsAnswer>('/manage_sims/upload/destroy_conversations', input);
  return answer.data;
}

/** The captures the user may open, newest first; `q` finds a file name, an Action's VID or the id. */
export async function getCaptures(q: string, signal?: AbortSignal): Promise<PcapCapturesAnswer['data']> {
  return (await http.get<PcapCapturesAnswer>('/manage_sims/pcaps.json', { params: { q, limit: 20 }, ...(signal ? { signal } : {}) })).data;
}

/** The conversations of an upload. */
export async function getConversations(uploadId: number, signal?: AbortSignal): Promise<ShowConversationsAnswer['data']['conversations']> {
  return (await http.get<ShowConversationsAnswer>(`/manage_sims/upload/show_conversations/${uploadId}.json`, signal ? { signal } : {})).data.conversations;
}

