import { proxy } from 'valtio';
import type { DependencyActor } from '@/api/contracts/actor-dependencies';
import type { IntegrationRow } from '@/api/contracts/integrations';

/**
 * The Integrations pane's shared state: the creation modal's kind (opened by integrations.add), the
 * selected integration, the rows last loaded (the palette's pick list) and why the menu is disabled.
 */
export const integrationsStore = proxy<{
  adding: { type: string; remote: boolean } | null;
  selectedId: number | null;
  known: Pick<IntegrationRow, 'id' | 'name'>[];
  /** Why integrations cannot be added now (service not running, in error, actions disabled), or null. */
  blocked: string | null;
  /** The actors dependencies can be installed on, as last loaded (the palette's pick list), and the selected one. */
  dependencyActors: DependencyActor[];
  selectedActorId: number | null;
  /** Actors whose install call runs in this page now (JOB-061 INSTALLING). */
  installRuns: number[];
  /** The threat-intel modal: a kind to add, a source id to edit, or null; the selected source; the sources last loaded (the palette's pick list). */
  threatIntelForm: { kind: string } | number | null;
  selectedThreatIntelId: number | null;
  knownThreatIntel: { id: number; name: string; brand_name: string }[];
}>({ adding: null, selectedId: null, known: [], blocked: null, dependencyActors: [], selectedActorId: null, installRuns: [], threatIntelForm: null, selectedThreatIntelId: null, knownThreatIntel: [] });
