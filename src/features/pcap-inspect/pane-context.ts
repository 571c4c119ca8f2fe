import { definePaneContext } from '@/commands/pane-contexts';

/** What the focused Packet View offers its pane-local commands: `ctx.pane(packetViewPane)`. */
export interface PacketViewApi {
  /** The capture (pcap_library_id) shown. */
  id: number;
  goTo(no: number): void;
  move(delta: number): void;
  /** The selected packet's bytes as hex. */
  copyHex(): Promise<string>;
}

export const packetViewPane = definePaneContext<PacketViewApi>('pcap.packet-view');
