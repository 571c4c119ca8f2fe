import * as yup from 'yup';
import { chosenValue, pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { conversationsKey, destroyConversations, getCaptures, getConversations } from './api';
import { packetViewPane, type PacketViewApi } from './pane-context';

const inPane = (ctx: CommandContext) => ctx.pane(packetViewPane) !== undefined;
const canEdit = (ctx: CommandContext) => ctx.permissions.has('create_action_permission');

function packetView(ctx: CommandContext): PacketViewApi {
  const p = ctx.pane(packetViewPane);
  if (!p) throw new Error('Open a Packet View first');
  return p;
}

/** The captures (PCAP uploads) to pick from, by file name, Action VID or id; the focused Packet View's chosen at first. */
const capturePicks: PickSource = {
  noun: 'capture',
  search: async (query, signal) =>
    (await getCaptures(query.trim(), signal)).map((c) => ({ value: c.id, label: c.orig_filename, detail: `${c.action_vid ? `${c.action_vid}, ` : ''}upload ${c.id}, ${c.status}` })),
  current: (ctx) => {
    const p = ctx.pane(packetViewPane);
    return p ? { value: p.id, label: `Capture ${p.id}` } : null;
  },
};

/** The conversations of the capture chosen in the form's upload pick list, by address, port, protocol and service. */
const conversationPicks: PickSource = {
  noun: 'conversation',
  search: async (query, signal, chosen) => {
    const upload = chosenValue(chosen, 'upload_id');
    if (upload === undefined) return [];
    const q = query.trim().toLowerCase();
    return (await getConversations(upload, signal))
      .map((c) => ({ value: c.id, label: `${c.protocol.toUpperCase()} ${c.source_address}:${c.source_port} to ${c.dest_address}:${c.dest_port}`, detail: [c.service, `${c.data_size} bytes`].filter(Boolean).join(', ') }))
      .filter((o) => !q || `${o.label} ${o.detail}`.toLowerCase().includes(q));
  },
};
const uploadId = () => yup.number().typeError('must be a number').integer().min(1).required('Upload id').label('Capture').meta(pickFrom(capturePicks));

/** Packet View and PCAP conversation commands (plain fetchers; no React inside run). */
export const pcapCommands: AnyCommand[] = [
  defineCommand<{ id: number }>({
    id: 'pcap.openPacketView',
    title: 'Open Packet View…',
    category: 'PCAP',
    keywords: ['pcap', 'packets', 'capture', 'inspect', 'hex', 'wireshark'],
    needsWorkbench: true,
    args: yup.object({ id: yup.number().typeError('id must be a number').integer().min(1).required('The capture (pcap_library_id) to open').label('Capture').meta(pickFrom(capturePicks)) }),
    run: ({ id }, ctx) => {
      if (!ctx.dock) throw new Error('This command needs the workbench');
      ctx.dock.openUrl(`/manage_sims/pcaps/inspect/${id}`);
    },
  }),
  defineCommand<{ no: number }>({
    id: 'pcap.goToPacket',
    title: 'Packet View: Go to Packet…',
    category: 'PCAP',
    keywords: ['jump', 'frame', 'number'],
    hotkey: 'mod+g',
    hotkeyContext: 'pcap-inspect',
    needsWorkbench: true,
    when: inPane,
    args: yup.object({ no: yup.number().typeError('must be a number').integer().min(1).required('Packet number') }),
    run: ({ no }, ctx) => packetView(ctx).goTo(no),
  }),
  defineCommand({
    id: 'pcap.nextPacket',
    title: 'Packet View: Next Packet',
    category: 'PCAP',
    hotkey: 'j',
    hotkeyContext: 'pcap-inspect',
    needsWorkbench: true,
    when: inPane,
    run: (_a, ctx) => packetView(ctx).move(1),
  }),
  defineCommand({
    id: 'pcap.previousPacket',
    title: 'Packet View: Previous Packet',
    category: 'PCAP',
    hotkey: 'k',
    hotkeyContext: 'pcap-inspect',
    needsWorkbench: true,
    when: inPane,
    run: (_a, ctx) => packetView(ctx).move(-1),
  }),
  defineCommand({
    id: 'pcap.copyPacketHex',
    title: 'Packet View: Copy Packet as Hex',
    category: 'PCAP',
    hotkey: 'mod+shift+c',
    hotkeyContext: 'pcap-inspect',
    needsWorkbench: true,
    when: inPane,
    run: async (_a, ctx) => {
      const hex = await packetView(ctx).copyHex();
      await navigator.clipboard?.writeText(hex).catch(() => undefined);
      return { bytes: hex.length / 2 };
    },
  }),
  defineCommand<{ upload_id: number; conv_id: number[] }>({
    id: 'pcap.removeConversation',
    title: 'Remove PCAP Conversation…',
    category: 'PCAP',
    keywords: ['conversation', 'delete', 'pcap upload'],
    when: canEdit,
    args: yup.object({
      upload_id: uploadId(),
      conv_id: yup.array(yup.number().integer().min(1).required()).min(1, 'At least one conversation id').required('Conversation ids').label('Conversations').meta(pickFrom(conversationPicks)),
    }),
    run: async ({ upload_id, conv_id }, ctx) => {
      const d = await destroyConversations({ upload_id, conv_id });
      await ctx.queryClient?.invalidateQueries({ queryKey: conversationsKey(upload_id) });
      return { remaining: d.conversations.length };
    },
  }),
  defineCommand<{ upload_id: number; protocol: 'tcp' | 'udp' }>({
    id: 'pcap.removeProtocol',
    title: 'Remove All TCP or All UDP PCAP Conversations…',
    category: 'PCAP',
    keywords: ['conversation', 'delete', 'tcp', 'udp', 'pcap upload'],
    when: canEdit,
    args: yup.object({
      upload_id: uploadId(),
      protocol: yup.string().oneOf(['tcp', 'udp'], 'tcp or udp').required('tcp or udp') as yup.Schema<'tcp' | 'udp'>,
    }),
    run: async ({ upload_id, protocol }, ctx) => {
      const d = await destroyConversations({ upload_id, remove_tcp_or_udp: protocol });
      await ctx.queryClient?.invalidateQueries({ queryKey: conversationsKey(upload_id) });
      return { remaining: d.conversations.length };
    },
  }),
];
