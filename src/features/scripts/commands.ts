import * as yup from 'yup';
import { scriptPicks } from '@/commands/entity-picks';
import { pickFrom } from '@/commands/pick';
import { sleepUnlessStopped, StoppedError } from '@/commands/abort';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { commands } from '@/commands/registry';
import { finishScriptRun, getScript, getScripts, isOthersScript, openScriptRun, othersScriptQuestion, scriptsQueryKey } from './api';

async function findScript(ref: string) {
  const byId = /^\d+$/.test(ref) ? Number(ref) : null;
  if (byId) return getScript(byId);
  const all = await getScripts();
  const match = all.find((s) => s.name.toLowerCase() === ref.trim().toLowerCase());
  if (!match) throw new Error(`No saved script is named "${ref}"`);
  return match;
}

function openScripts(ctx: CommandContext, query = '') {
  if (!ctx.dock) throw new Error('This command needs the workbench');
  ctx.dock.openUrl(`/scripts${query}`);
}

/** Commands of the Scripts feature, and helpers that scripts use (wait, echo). None reaches into React. */
export const scriptCommands: AnyCommand[] = [
  defineCommand({
    id: 'scripts.new',
    title: 'New Script',
    category: 'Scripts',
    keywords: ['sequence', 'automation', 'command script'],
    needsWorkbench: true,
    run: (_a, ctx) => openScripts(ctx, '?id=new'),
  }),
  defineCommand<{ script: string }>({
    id: 'scripts.open',
    title: 'Open Script…',
    category: 'Scripts',
    needsWorkbench: true,
    args: yup.object({ script: yup.string().trim().required('Name or id of the script').label('script (name or id)').meta(pickFrom(scriptPicks)) }),
    run: async ({ script }, ctx) => {
      const found = await findScript(script);
      openScripts(ctx, `?id=${found.id}`);
      return { id: found.id, name: found.name };
    },
  }),
  defineCommand<{ script: string; continue?: boolean }>({
    id: 'scripts.run',
    title: 'Run Saved Script…',
    category: 'Scripts',
    args: yup.object({ script: yup.string().trim().required('Name or id of the script').label('Script').meta(pickFrom(scriptPicks)), continue: yup.boolean().default(false) }),
    run: async ({ script, continue: continueOnError }, ctx) => {
      const found = await findScript(script);
      if (isOthersScript(found, ctx.user?.id) && !(await ctx.confirm(othersScriptQuestion(found), { confirmLabel: 'Run Script', cancelLabel: 'Do Not Run' }))) return { id: found.id, outcome: 'declined' };
      const runId = await openScriptRun(found.id, ctx.dock ? 'workbench' : 'terminal', false).catch(() => null);
      // The script language (parser and runner) loads on first run: the workbench's first download does not carry it.
      const [{ parseScript }, { runScript }] = await Promise.all([import('@/commands/script/parse'), import('@/commands/script/run')]);
      const result = await runScript(commands, parseScript(found.body), { continueOnError, headless: !ctx.dock, signal: ctx.signal });
      if (runId !== null) await finishScriptRun(found.id, runId, result).catch(() => undefined);
      await ctx.queryClient?.invalidateQueries({ queryKey: scriptsQueryKey });
      if (result.outcome === 'stopped') throw new StoppedError();
      if (result.outcome !== 'ok') throw new Error(`Script "${found.name}" ${result.outcome}: ${result.steps.find((s) => s.status === 'failed')?.error ?? 'stopped'}`);
      return { id: found.id, outcome: result.outcome, steps: result.steps.length };
    },
  }),
  defineCommand<{ ms: number }>({
    id: 'script.wait',
    title: 'Wait',
    category: 'Scripts',
    keywords: ['sleep', 'pause'],
    args: yup.object({ ms: yup.number().integer().min(0).max(3_600_000, 'At most one hour').required('ms is required') }),
    run: async ({ ms }, ctx) => {
      await sleepUnlessStopped(ms, ctx.signal);
      return { waited_ms: ms };
    },
  }),
  defineCommand<{ text: string }>({
    id: 'script.echo',
    title: 'Echo',
    category: 'Scripts',
    keywords: ['print', 'log'],
    args: yup.object({ text: yup.string().defined('text is required') }),
    run: ({ text }) => text,
  }),
];
