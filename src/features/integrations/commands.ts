import * as yup from 'yup';
import { INTEGRATION_KINDS, INTEGRATION_TYPES, createIntegrationSchema, type CreateIntegrationRequest, type IntegrationRow } from '@/api/contracts/integrations';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { confirmDialog } from '@/ui/confirm-store';
import { flash } from '@/ui/toasts';
import { INSTALL_FAILED_TEXT, INSTALL_TOAST_TITLE, installedText, isOpenTask, type ActorTask, type DependencyActor } from '@/api/contracts/actor-dependencies';
import { ApiError } from '@/api/http';
import { sleepUnlessStopped } from '@/commands/abort';
import {
  checkActorVersion,
  createIntegration,
  deleteIntegration,
  dependencyActorsQueryKey,
  getDependencyActor,
  getDependencyActors,
  getIntegrationsMenu,
  installActorDependencies,
  integrationsQueryKey,
} from './api';
import { clearInstallMarker, setInstallMarker } from './deps-marker';
import { canManageIntegrations as canManage, openFromMenu } from './menu-gate';
import { integrationsStore } from './store';
import { threatIntelCommands } from './threat-intel-commands';

const labelOf = (type: string) => INTEGRATION_KINDS.find((k) => k.type === type)?.label ?? type;

/** The integrations to pick from (by name, kind and file). */
const integrationPicks: PickSource = {
  noun: 'integration',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getIntegrationsMenu()).data
      .filter((r) => !q || `${r.name} ${r.brand_name} ${r.source_path ?? ''}`.toLowerCase().includes(q))
      .slice(0, 20)
      .map((r) => ({ value: r.id, label: r.name, detail: r.source_path ?? r.brand_name }));
  },
  current: () => {
    const hit = integrationsStore.known.find((k) => k.id === integrationsStore.selectedId);
    return hit ? { value: hit.id, label: hit.name } : null;
  },
};

/** The actors dependencies can be installed on (JOB-097), by name, OS and version. */
const dependencyActorPicks: PickSource = {
  noun: 'actor',
  search: async (query) => {
    const q = query.trim().toLowerCase();
    return (await getDependencyActors())
      .filter((a) => !q || `${a.name} ${a.os} ${a.msi_service_version ?? ''}`.toLowerCase().includes(q))
      .slice(0, 20)
      .map((a) => ({ value: a.id, label: a.name, detail: `${a.status}, version ${a.msi_service_version ?? 'unknown'}` }));
  },
  current: () => {
    const hit = integrationsStore.dependencyActors.find((a) => a.id === integrationsStore.selectedActorId);
    return hit ? { value: hit.id, label: hit.name } : null;
  },
};
const actorArgs = yup.object({ actor: yup.number().integer().positive().required('Choose the actor').label('Actor').meta(pickFrom(dependencyActorPicks)) }) as yup.Schema<{ actor: number }>;

/** The director's refusal, or `fallback` when there is none (the director could not be reached). */
const serverError = (e: unknown, fallback: string) => (e instanceof ApiError ? (e.status > 0 && e.message) || fallback : (e instanceof Error && e.message) || fallback);

/** Polls the actor until task `taskId` settles (the actor reported), or the run is stopped. */
async function settledTask(actorId: number, taskId: number, signal: AbortSignal | undefined): Promise<DependencyActor> {
  for (;;) {
    const actor = await getDependencyActor(actorId);
    integrationsStore.dependencyActors = integrationsStore.dependencyActors.map((a) => (a.id === actorId ? actor : a));
    if (actor.task?.id === taskId && !isOpenTask(actor.task)) return actor;
    if (actor.task?.id !== taskId && !isOpenTask(actor.task)) throw new Error(`Actor ${actor.name} has no record of the task any more.`);
    await sleepUnlessStopped(TASK_POLL_MS, signal);
  }
}
const TASK_POLL_MS = 1000;

export const integrationsCommands: AnyCommand[] = [
  defineCommand<{ integration_type: string }, null>({
    id: 'integrations.add',
    title: 'Add Integration…',
    category: 'Integrations',
    keywords: ['integration', 'new', 'menu', 'security tool', 'suricata', 'eve', 'nftables', 'ulogd', 'webhook'],
    when: canManage,
    args: yup.object({
      integration_type: yup
        .string()
        .required('Choose the integration to add')
        .oneOf([...INTEGRATION_TYPES], `The integration must be one of ${INTEGRATION_TYPES.join(', ')}`)
        .label('Integration'),
    }) as yup.Schema<{ integration_type: string }>,
    run: async (args, ctx) => {
      await openFromMenu(ctx);
      integrationsStore.adding = { type: args.integration_type, remote: false };
      return null;
    },
  }),
  defineCommand<CreateIntegrationRequest, IntegrationRow>({
    id: 'integrations.create',
    title: 'Create integration…',
    buttonLabel: 'Add Integration',
    category: 'Integrations',
    keywords: ['integration', 'security tool', 'sensor', 'nftables', 'ulogd', 'suricata', 'eve', 'webhook', 'firewall', 'events'],
    when: canManage,
    // The palette prompts for these; the kind is a pick list. The director checks the same schema.
    args: createIntegrationSchema as yup.Schema<CreateIntegrationRequest>,
    run: async (args, ctx) => {
      const row = await createIntegration(args);
      flash('notice', `Integration ${row.name} (${labelOf(row.type)}) created${row.source_path ? `; the director reads ${row.source_path}` : ''}.`);
      await ctx.queryClient?.invalidateQueries({ queryKey: integrationsQueryKey });
      integrationsStore.selectedId = row.id;
      return row;
    },
  }),
  defineCommand<{ actor: number }, DependencyActor>({
    id: 'integrations.installDependencies',
    title: INSTALL_TOAST_TITLE,
    buttonLabel: 'Install Dependencies',
    category: 'Integrations',
    keywords: ['dependencies', 'actor', 'install', 'programs', 'openssh', '7zip', 'packages'],
    when: canManage,
    args: actorArgs,
    // JOB-061: INSTALLING while this runs (and while the marker stays, across reloads); JOB-108/JOB-109 toasts.
    run: async ({ actor: id }, ctx) => {
      setInstallMarker(id);
      integrationsStore.installRuns.push(id);
      try {
        let task: ActorTask;
        try {
          task = await installActorDependencies(id);
        } catch (e) {
          throw new Error(serverError(e, INSTALL_FAILED_TEXT));
        }
        await ctx.queryClient?.invalidateQueries({ queryKey: dependencyActorsQueryKey });
        const actor = await settledTask(id, task.id, ctx.signal).catch((e: unknown) => {
          if (ctx.signal?.aborted) throw e;
          throw new Error(serverError(e, INSTALL_FAILED_TEXT));
        });
        if (actor.task?.status !== 'done') throw new Error(actor.task?.message || INSTALL_FAILED_TEXT);
        flash('notice', installedText(actor.name), { title: INSTALL_TOAST_TITLE });
        return actor;
      } finally {
        integrationsStore.installRuns = integrationsStore.installRuns.filter((a) => a !== id);
        // A stopped script leaves the install running on the actor: the marker stays until it settles.
        if (!ctx.signal?.aborted) clearInstallMarker(id);
        await ctx.queryClient?.invalidateQueries({ queryKey: dependencyActorsQueryKey });
      }
    },
  }),
  defineCommand<{ actor: number }, DependencyActor>({
    id: 'integrations.checkActorVersion',
    title: 'Check Actor Version',
    category: 'Integrations',
    keywords: ['version', 'actor', 'dependencies', 'failed'],
    when: canManage,
    args: actorArgs,
    // JOB-061: clicking FAILED forces a version check; the actor's answer clears the install marker.
    run: async ({ actor: id }, ctx) => {
      const task = await checkActorVersion(id);
      await ctx.queryClient?.invalidateQueries({ queryKey: dependencyActorsQueryKey });
      const actor = await settledTask(id, task.id, ctx.signal);
      clearInstallMarker(id);
      await ctx.queryClient?.invalidateQueries({ queryKey: dependencyActorsQueryKey });
      if (actor.task?.status !== 'done') throw new Error(actor.task?.message || `Actor ${actor.name} did not report its version.`);
      flash('notice', actor.task.message || `Actor ${actor.name} runs version ${actor.msi_service_version ?? 'unknown'}.`);
      return actor;
    },
  }),
  defineCommand<{ id?: number | undefined }, boolean>({
    id: 'integrations.delete',
    title: 'Delete Integration',
    category: 'Integrations',
    keywords: ['integration', 'remove'],
    when: canManage,
    args: yup.object({
      id: yup.number().integer().positive().label('Integration (default: the selected one)').optional().meta(pickFrom(integrationPicks)),
    }) as yup.Schema<{ id?: number | undefined }>,
    enabled: (_ctx, args) => !!args?.id || integrationsStore.selectedId !== null,
    run: async (args, ctx) => {
      const id = args?.id ?? integrationsStore.selectedId;
      const rows = integrationsStore.known.some((k) => k.id === id) ? integrationsStore.known : (await getIntegrationsMenu()).data;
      const hit = rows.find((k) => k.id === id);
      if (!hit) throw new Error(id ? `There is no integration ${id}.` : 'Select an integration in the Integrations pane first, or pick one.');
      const ok = await confirmDialog(`Delete the integration ${hit.name}? Its stored events go with it; job results keep their copies.`, { confirmLabel: 'Delete Integration', cancelLabel: 'Keep Integration' });
      if (!ok) return false;
      await deleteIntegration(hit.id);
      flash('notice', `Integration ${hit.name} deleted.`);
      if (integrationsStore.selectedId === hit.id) integrationsStore.selectedId = null;
      await ctx.queryClient?.invalidateQueries({ queryKey: integrationsQueryKey });
      return true;
    },
  }),
  // The integrations menu's threat-intel integrations (threat-intel-commands.ts).
  ...threatIntelCommands,
];
