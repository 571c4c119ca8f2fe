/**
 * The form's buttons go through the command registry (the focused pane's commands); a button of a
 * pane that is not the focused one (e.g. in a second group) calls its own form directly.
 */
import { commands } from '@/commands/registry';
import type { FormController } from '../pane-context';

export type FormButtonOp = 'save' | 'reset' | 'cancel' | 'continue' | 'previous' | 'toggleSteps';

const DIRECT: Record<FormButtonOp, (c: FormController) => unknown> = {
  save: (c) => c.save(),
  reset: (c) => c.reset(),
  cancel: (c) => c.cancel(),
  continue: (c) => c.next(),
  previous: (c) => c.previous(),
  toggleSteps: (c) => c.toggleView(),
};

export function runFormCommand(paneKind: string, paneParams: Record<string, string>, op: FormButtonOp, form: FormController): void {
  const id = `${paneKind}.${op}`;
  const cmd = commands.get(id);
  const c = commands.context();
  if (cmd && (!cmd.when || cmd.when(c)) && c.activePane?.params.id === paneParams.id) void commands.execute(id, undefined, 'button').catch(() => undefined);
  else void DIRECT[op](form);
}
