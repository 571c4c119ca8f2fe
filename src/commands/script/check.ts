import * as yup from 'yup';
import type { CommandRegistry } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { argUsesVariables, type ArgValue, type ParsedScript, type ScriptStep } from './parse';

export interface Diagnostic {
  line: number;
  column: number;
  message: string;
  severity: 'error' | 'warning';
}

export const WORKBENCH_ONLY = 'only works in the workbench (it opens, focuses or moves panes); a terminal runner cannot do it';

export interface ArgSpec {
  name: string;
  type: string;
  required: boolean;
  label: string;
  oneOf: unknown[];
}

/** The arguments a command declares, read from its yup object schema. */
export function argSpecs(command: AnyCommand): ArgSpec[] {
  if (!command.args) return [];
  const d = command.args.describe() as yup.SchemaObjectDescription;
  return Object.entries(d.fields ?? {}).map(([name, f]) => {
    const fd = f as yup.SchemaDescription;
    return { name, type: fd.type, required: !fd.optional, label: fd.label ?? name, oneOf: (fd.oneOf ?? []).filter((v) => v !== undefined && v !== null) };
  });
}

function literalOf(value: ArgValue): string | undefined {
  return value.kind === 'literal' ? value.text : undefined;
}

/** Problems of one step that can be known before running it. */
export function checkStep(step: ScriptStep, registry: CommandRegistry, ctx: CommandContext, bound: ReadonlySet<string>, headless: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const err = (column: number, message: string) => out.push({ line: step.line, column, message, severity: 'error' });
  const command = registry.get(step.commandId);
  if (!command) {
    err(step.column, `Unknown command "${step.commandId}"`);
    return out;
  }
  if (headless && command.needsWorkbench) err(step.column, `${step.commandId} ${WORKBENCH_ONLY}`);
  else if (command.when && !command.when(ctx)) err(step.column, `${step.commandId} is not available to you (your role lacks the permission, or it needs the workbench)`);
  for (const [name, value] of Object.entries(step.args)) {
    const refs = value.kind === 'var' ? [value] : value.kind === 'template' ? value.parts.filter((p) => typeof p !== 'string') : [];
    for (const ref of refs) if (typeof ref !== 'string' && !bound.has(ref.name)) err(step.argColumns[name] ?? step.column, `Variable $${ref.name} is not defined before this line (bind it with let ${ref.name} = …)`);
  }
  const specs = argSpecs(command);
  const known = new Set(specs.map((s) => s.name));
  for (const name of Object.keys(step.args)) {
    if (!known.has(name)) err(step.argColumns[name] ?? step.column, `Unknown argument "${name}" for ${step.commandId}${specs.length ? ` (expected: ${specs.map((s) => s.name).join(', ')})` : ' (it takes no arguments)'}`);
  }
  for (const spec of specs) {
    const value = step.args[spec.name];
    if (!value) {
      if (spec.required) err(step.column, `${step.commandId} needs ${spec.name}=…`);
      continue;
    }
    const literal = literalOf(value);
    if (literal === undefined || argUsesVariables(value) || !command.args) continue;
    try {
      (command.args as yup.ObjectSchema<Record<string, unknown>>).validateSyncAt(spec.name, { [spec.name]: literal });
    } catch (e) {
      if (e instanceof yup.ValidationError) err(step.argColumns[spec.name] ?? step.column, `${spec.name}: ${e.errors.join(' ')}`);
    }
  }
  return out;
}

/** Every problem in a script: syntax errors, then per-step checks in order of the lines. */
export function checkScript(parsed: ParsedScript, registry: CommandRegistry, ctx: CommandContext, headless = false): Diagnostic[] {
  const out: Diagnostic[] = parsed.errors.map((e) => ({ ...e, severity: 'error' as const }));
  const bound = new Set<string>();
  for (const step of parsed.steps) {
    out.push(...checkStep(step, registry, ctx, bound, headless));
    if (step.bind) bound.add(step.bind);
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
