import type { FeatureModule } from '@/panes/feature-module';
import { pcapCommands } from './commands';
import { PacketViewPane } from './packet-view-pane';

/** Packet View of stored captures (/manage_sims/pcaps/inspect/{pcap_library_id}) and PCAP conversation commands. */
export const pcapInspectFeature: FeatureModule = {
  id: 'pcap-inspect',
  commands: pcapCommands,
  panes: [{ id: 'pcap-inspect', title: 'Packet View {id}', routes: ['/manage_sims/pcaps/inspect/:id'], query: ['packet'], identity: ['id'], component: PacketViewPane, listed: false }],
};
