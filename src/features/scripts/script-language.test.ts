import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import * as yup from 'yup';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { scriptCompletions } from './script-language';

function registry() {
  const r = new CommandRegistry(() => ({ ...emptyContext(), permissions: new Set(['jobs.cancel' as const]) }));
  r.register({
    id: 'jobs.cancel',
    title: 'Cancel Job',
    category: 'Jobs',
    when: (c) => c.permissions.has('jobs.cancel'),
    args: yup.object({ id: yup.number().integer().required(), reason: yup.string().oneOf(['stale', 'wrong']).optional() }),
    run: () => undefined,
  });
  r.register({ id: 'jobs.destroy', title: 'Delete Job', category: 'Jobs', when: (c) => c.permissions.has('jobs.destroy'), run: () => undefined });
  r.register({ id: 'script.echo', title: 'Echo', category: 'Scripts', args: yup.object({ text: yup.string().required() }), run: () => undefined });
  r.register({ id: 'pane.resetLayout', title: 'Reset Layout', category: 'Panes', run: () => undefined });
  return r;
}

/** Completions at the `|` of `text`, as the editor asks for them while typing (or with Ctrl+Space when explicit). */
function complete(text: string, explicit = false): CompletionResult | null {
  const pos = text.indexOf('|');
  const state = EditorState.create({ doc: text.replace('|', '') });
  return scriptCompletions(registry())(new CompletionContext(state, pos, explicit)) as CompletionResult | null;
}

const labels = (r: CompletionResult | null) => r?.options.map((o) => o.label) ?? [];

describe('script editor completion', () => {
  it('completes command ids at the start of a line, with each title and argument types, only for commands the user may run', () => {
    const r = complete('jo|');
    expect(r?.from).toBe(0);
    expect(labels(r)).toEqual(['jobs.cancel', 'script.echo', 'pane.resetLayout']);
    const cancel = r?.options.find((o) => o.label === 'jobs.cancel');
    expect(cancel?.detail).toBe('Cancel Job');
    expect(cancel?.info).toBe('Jobs: Cancel Job\nArguments: id: number, reason?: string');
    expect(r?.options.find((o) => o.label === 'pane.resetLayout')?.info).toBe('Panes: Reset Layout\nNo arguments');
    expect(r?.validFor instanceof RegExp && r.validFor.test('jobs.ca')).toBe(true);
  });

  it('completes command ids on an empty line and after `let name =` (there once a letter is typed, or when asked)', () => {
    const r = complete('script.echo text=a\nlet job = sc|');
    expect(r?.from).toBe('script.echo text=a\nlet job = '.length);
    expect(labels(r)).toContain('script.echo');
    expect(labels(complete('|'))).toContain('jobs.cancel');
    expect(labels(complete('  |'))).toContain('jobs.cancel');
    expect(complete('let job = |')).toBeNull();
    expect(labels(complete('let job = |', true))).toContain('jobs.cancel');
  });

  it("completes a command's argument names with their types, leaving out those already given", () => {
    const r = complete('jobs.cancel |');
    expect(r?.from).toBe('jobs.cancel '.length);
    expect(r?.options.map((o) => [o.label, o.detail, o.info])).toEqual([
      ['id=', 'number, required', undefined],
      ['reason=', 'string', 'One of: stale, wrong'],
    ]);
    const partial = complete('jobs.cancel id=4 re|');
    expect(partial?.from).toBe('jobs.cancel id=4 '.length);
    expect(labels(partial)).toEqual(['reason=']);
    expect(labels(complete('let x = script.echo |'))).toEqual(['text=']);
  });

  it('offers nothing in comments, for unknown commands, or inside a value', () => {
    expect(complete('# jobs.ca|')).toBeNull();
    expect(complete('nope.command |')).toBeNull();
    expect(complete('script.echo text="a b|')).toBeNull();
    expect(complete('jobs.cancel reason="x \\" y|')).toBeNull();
    expect(labels(complete('jobs.cancel reason="x y" |'))).toEqual(['id=']);
  });
});
