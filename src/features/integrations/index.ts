import type { FeatureModule } from '@/panes/feature-module';
import { integrationsCommands } from './commands';

/** Integrations: the security tools whose events the director matches to job actions (webhook, Suricata EVE, nftables/ulogd JSON). */
export const integrationsFeature: FeatureModule = {
  id: 'integrations',
  commands: integrationsCommands,
  panes: [],
};
