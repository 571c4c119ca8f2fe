/**
 * Threat-intel sources' commands (JOB-029's threat-intel integrations): add (opens the modal of a kind,
 * from the integrations menu or the palette), create, edit, delete. The API key is write-only.
 */
import * as yup from 'yup';
import { THREAT_INTEL_TYPES, threatIntelCreateSchema, threatIntelUpdateSchema, type ThreatIntelCreate, type ThreatIntelSource, type ThreatIntelUpdate } from '@/api/contracts/threat-intel';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { createThreatIntel, deleteThreatIntel, getThreatIntel, threatIntelQueryKey, updateThreatIntel } from './api';
import { canManageIntegrations as canManage, INTEGRATIONS_PANE_URL, openFromMenu } from './menu-gate';
import { integrationsStore } from './store';

const refresh = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries({ queryKey: threatIntelQueryKey });

/** The threat-intel sources to pick from, by name and kind. */
const sourcePicks: PickSource = {
  noun: 'threat-intel source',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getThreatIntel()).data
      .filter((s) => !q || `${s.name} ${s.brand_name} ${s.url}`.toLowerCase().includes(q))
      .slice(0, 20)
      .map((s) => ({ value: s.id, label: s.name, detail: `${s.brand_name}, ${s.url}` }));
  },
  current: () => {
    const hit = integrationsStore.knownThreatIntel.find((s) => s.id === integrationsStore.selectedThreatIntelId);
    return hit ? { value: hit.id, label: hit.name } : null;
  },
};
const sourceArg = () => yup.number().integer().positive().label('Threat-intel source (default: the selected one)').optional().meta(pickFrom(sourcePicks));

/** The source a command acts on: the one named, else the selected one. */
function sourceId(id: number | undefined): number {
  const picked = id ?? integrationsStore.selectedThreatIntelId;
  if (!picked) throw new Error('Select a threat-intel source in the Integrations pane first, or pick one.');
  return picked;
}
const nameOf = (id: number) => integrationsStore.knownThreatIntel.find((s) => s.id === id)?.name ?? `threat-intel source ${id}`;

type EditArgs = { id?: number | undefined } & ThreatIntelUpdate;

export const threatIntelCommands: AnyCommand[] = [
  defineCommand<{ integration_type: string }, null>({
    id: 'threatIntel.add',
    title: 'Add Threat-Intel Source…',
    category: 'Integrations',
    keywords: ['threat intel', 'intelligence', 'feed', 'misp', 'opencti', 'taxii', 'stix', 'otx', 'alienvault', 'integration'],
    when: canManage,
    args: yup.object({
      integration_type: yup
        .string()
        .required('Choose the kind of threat-intel source')
        .oneOf([...THREAT_INTEL_TYPES], `The kind must be one of ${THREAT_INTEL_TYPES.join(', ')}`)
        .label('Kind'),
    }) as yup.Schema<{ integration_type: string }>,
    // JOB-029: the integrations menu (threat-intel entries included) is disabled for the same reasons.
    run: async (args, ctx) => {
      await openFromMenu(ctx);
      integrationsStore.threatIntelForm = { kind: args.integration_type };
      return null;
    },
  }),
  defineCommand<ThreatIntelCreate, ThreatIntelSource>({
    id: 'threatIntel.create',
    title: 'Create threat-intel source…',
    buttonLabel: 'Add Source',
    category: 'Integrations',
    keywords: ['threat intel', 'feed', 'misp', 'opencti', 'taxii', 'otx'],
    when: canManage,
    args: threatIntelCreateSchema as yup.Schema<ThreatIntelCreate>,
    run: async (args, ctx) => {
      const row = await createThreatIntel(args);
      flash('notice', `Threat-intel source ${row.name} (${row.brand_name}) added.`);
      integrationsStore.selectedThreatIntelId = row.id;
      await refresh(ctx);
      return row;
    },
  }),
  defineCommand<EditArgs, ThreatIntelSource | null>({
    id: 'threatIntel.edit',
    title: 'Edit Threat-Intel Source',
    buttonLabel: 'Edit Source',
    category: 'Integrations',
    keywords: ['threat intel', 'feed', 'api key', 'enable', 'disable', 'rename'],
    when: canManage,
    get args() {
      return yup.object({
        id: sourceArg(),
        name: yup.string().label('New name (all empty opens the form)').optional(),
        url: yup.string().label('New URL').optional(),
        api_key: yup.string().label('New API key').optional(),
        clear_api_key: yup.boolean().optional(),
        enabled: yup.boolean().optional(),
      }) as yup.Schema<EditArgs>;
    },
    enabled: (_ctx, args) => !!args?.id || integrationsStore.selectedThreatIntelId !== null,
    run: async (args, ctx) => {
      const { id: picked, ...changes } = args ?? {};
      const id = sourceId(picked);
      // Without changes (palette, toolbar) the form opens; with changes (the form, a script) the call is made.
      if (Object.values(changes).every((v) => v === undefined) && typeof document !== 'undefined') {
        ctx.dock?.openUrl(INTEGRATIONS_PANE_URL);
        integrationsStore.selectedThreatIntelId = id;
        integrationsStore.threatIntelForm = id;
        return null;
      }
      const row = await updateThreatIntel(id, threatIntelUpdateSchema.validateSync(changes, { abortEarly: false }));
      flash('notice', `Threat-intel source ${row.name} saved.`);
      await refresh(ctx);
      return row;
    },
  }),
  defineCommand<{ id?: number | undefined }, { id: number; message: string } | null>({
    id: 'threatIntel.delete',
    title: 'Delete Threat-Intel Source',
    buttonLabel: 'Delete Source',
    category: 'Integrations',
    keywords: ['threat intel', 'feed', 'remove'],
    when: canManage,
    get args() {
      return yup.object({ id: sourceArg() }) as yup.Schema<{ id?: number | undefined }>;
    },
    enabled: (_ctx, args) => !!args?.id || integrationsStore.selectedThreatIntelId !== null,
    run: async (args, ctx) => {
      const id = sourceId(args?.id);
      if (!(await ctx.confirm(`Delete the threat-intel source ${nameOf(id)}? Its API key goes with it.`, { confirmLabel: 'Delete Source', cancelLabel: 'Keep Source' }))) return null;
      try {
        const done = await deleteThreatIntel(id);
        flash('notice', done.message);
        if (integrationsStore.selectedThreatIntelId === id) integrationsStore.selectedThreatIntelId = null;
        return done;
      } finally {
        await refresh(ctx);
      }
    },
  }),
];
