import { badRequest } from '../http-errors';

/**
 * Where the filter-rule builder (issue 8) plugs its rule trees into the jobs list. A compiler turns
 * `structuredFilter.rules` into one SQL condition over the jobs table (alias `j`), adding its values
 * through `param` (which returns the `$n` placeholder), and throws an HttpError (400) for a malformed tree.
 * Until one is installed, a structured filter with rules is refused with a 400 that says so; the events
 * part of a structured filter is handled by the jobs list itself. `actions`, when given, replaces the
 * job's job actions as rows `a` (`from ... where ...`; the reports' facet classes, server/reports/scope.ts).
 */
export type JobRuleCompiler = (rules: readonly unknown[], param: (value: unknown) => string, actions?: string) => string;

let compiler: JobRuleCompiler | null = null;

export function setJobRuleCompiler(next: JobRuleCompiler | null): void {
  compiler = next;
}

export function compileJobRules(rules: readonly unknown[], param: (value: unknown) => string, actions?: string): string {
  if (!compiler) throw badRequest('structuredFilter.rules cannot be applied: rule filters on jobs are not available in this version of Vigil (the events filter is).');
  return compiler(rules, param, actions);
}
