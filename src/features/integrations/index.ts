import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';

/** Integrations: the security tools whose events the director matches to job actions (webhook, Suricata EVE, nftables/ulogd JSON). Its commands: src/app/feature-commands.ts. */
export const integrationsFeature: FeatureModule = {
  id: 'integrations',
  panes: [{ id: 'integrations', component: lazyPane(() => import('./integrations-pane'), 'IntegrationsPane') }],
};
