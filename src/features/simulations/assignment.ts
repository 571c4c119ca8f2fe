import { isSingleActorStep, type SimulationPreview, type SimulationStep } from '@/api/contracts/simulations';

/**
 * Sequence assignment (JOB-060, JOB-071, JOB-070): the simulation's groups with actions, numbered as
 * the run call numbers them; each needs an attacker, and two-actor steps a target; steps that cannot
 * run are DISABLED with their reason. The assignment lives in the URL (attack_node_id_{n}, target_node_id_{n}).
 */

export interface AssignStep {
  /** 1-based, as attack_node_id_{n}: empty groups are not counted (the engine skips them too). */
  n: number;
  step: SimulationStep;
  single: boolean;
  /** Why the step cannot run, or null. */
  disabledReason: string | null;
  attacker: number | null;
  target: number | null;
  done: boolean;
}

export const removedGroupMessage = (n: number) => `Group ${n} was removed since it doesn't contain any actions.`;
export const NO_VALID_TARGETS = 'There are no Actors selectable as valid targets for the current group. Check that existing Actors can talk to each other and try again.';

const idParam = (v: string | undefined) => {
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The steps to assign, and the messages of the removed empty groups (numbered as the simulation shows them). */
export function assignSteps(p: SimulationPreview, params: Record<string, string>): { steps: AssignStep[]; removed: string[] } {
  const removed: string[] = [];
  const steps: AssignStep[] = [];
  p.steps.forEach((step, i) => {
    if (!step.actions.length) {
      removed.push(removedGroupMessage(i + 1));
      return;
    }
    const n = steps.length + 1;
    const single = isSingleActorStep(step);
    const disabledReason = step.can_run ? null : 'every Action of this step is disabled';
    const attacker = idParam(params[`attack_node_id_${n}`]);
    const target = single ? null : idParam(params[`target_node_id_${n}`]);
    steps.push({ n, step, single, disabledReason, attacker, target, done: disabledReason !== null || (attacker !== null && (single || target !== null)) });
  });
  return { steps, removed };
}

/** The targets the attacker can reach (cttn_authorized_actors within cttn_targets). */
export function validTargets(p: SimulationPreview, attacker: number): number[] {
  const targets = new Set(p.options.cttn_targets.map((t) => t.id));
  return (p.options.cttn_authorized_actors[String(attacker)] ?? []).filter((id) => targets.has(id));
}

/** The params after choosing `actor` for step n: an attacker clears the step's target. */
export function withChoice(params: Record<string, string>, n: number, role: 'attacker' | 'target', actor: number | null): Record<string, string> {
  const next = { ...params };
  const set = (key: string, v: number | null) => (v === null ? delete next[key] : (next[key] = String(v)));
  if (role === 'attacker') {
    set(`attack_node_id_${n}`, actor);
    set(`target_node_id_${n}`, null);
  } else {
    set(`target_node_id_${n}`, actor);
  }
  return next;
}

/** The run call's body: every assigned pair; step 1 borrows the first assigned pair when it is DISABLED. */
export function runBody(steps: readonly AssignStep[]): Record<string, number> {
  const body: Record<string, number> = {};
  for (const s of steps) {
    if (s.disabledReason || s.attacker === null) continue;
    body[`attack_node_id_${s.n}`] = s.attacker;
    if (s.target !== null) body[`target_node_id_${s.n}`] = s.target;
  }
  if (body.attack_node_id_1 === undefined) {
    const first = steps.find((s) => !s.disabledReason && s.attacker !== null);
    if (first?.attacker) body.attack_node_id_1 = first.attacker;
    if (first?.target) body.target_node_id_1 = first.target;
  }
  return body;
}
