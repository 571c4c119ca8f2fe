import type { FeatureModule } from '@/panes/feature-module';

/** Integrations: the security tools whose events the director matches to job actions (webhook, Suricata EVE, nftables/ulogd JSON). Its commands: src/app/feature-commands.ts. */
export const integrationsFeature: FeatureModule = {
  id: 'integrations',
  panes: [],
};
