import type { FeatureModule } from '@/panes/feature-module';
import { PacketViewPane } from './packet-view-pane';

/** Packet View of stored captures (/manage_sims/pcaps/inspect/{pcap_library_id}) and PCAP conversation commands. */
export const pcapInspectFeature: FeatureModule = {
  id: 'pcap-inspect',
  panes: [{ id: 'pcap-inspect', component: PacketViewPane }],
};
