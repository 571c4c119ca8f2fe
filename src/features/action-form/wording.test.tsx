import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { getIndentation, indentUnit } from '@codemirror/language';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorsInStepOrder } from './view/form-errors';
import { dropExtraIndent, hostCliLanguage } from './code-languages';

describe('the error summary', () => {
  it('lists problems in step order (step 1 first), keeping the form order within a step', () => {
    const flat = { 'trees.0': 'must be chosen', 'dns_action.domain': "can't be blank", 'sim_action.name': "can't be blank", 'dns_action.port': 'is invalid', 'sim_action.desc': "can't be blank" };
    expect(errorsInStepOrder(flat).map((e) => `${e.step} ${e.path}`)).toEqual(['1 sim_action.name', '1 sim_action.desc', '2 dns_action.domain', '2 dns_action.port', '3 trees.0']);
  });
});

describe('the host_cli editor', () => {
  const views: EditorView[] = [];
  afterEach(() => views.splice(0).forEach((v) => v.destroy()));
  const editor = (doc: string) => {
    const view = new EditorView({ state: EditorState.create({ doc, extensions: [hostCliLanguage, indentUnit.of('  '), EditorState.tabSize.of(2)] }) });
    views.push(view);
    return view;
  };

  it('indents after a command line only, never copying the line above', () => {
    const view = editor('whoami\n  auto 4 true 60\n  success_zero\n');
    const at = (line: number) => getIndentation(view.state, view.state.doc.line(line).from);
    expect(at(2)).toBe(2); // after the command: its parameters
    expect(at(3)).toBe(0); // after the parameters: whatever is typed, as typed
    expect(at(4)).toBe(0);
  });

  it('drops spaces typed into leading whitespace that already holds an indent unit, so a typed script keeps its own indentation', () => {
    const view = editor('whoami\n  ');
    const end = view.state.doc.length;
    expect(dropExtraIndent(view, end, end, '  ')).toBe(true);
    expect(dropExtraIndent(view, end, end, 'a')).toBe(false);
    const line1 = editor('whoami\n ');
    expect(dropExtraIndent(line1, line1.state.doc.length, line1.state.doc.length, ' ')).toBe(false);
    const mid = editor('whoami');
    expect(dropExtraIndent(mid, 3, 3, ' ')).toBe(false);
  });

  it('the host_cli language warns about none of its highlighting tags (no "Modifier function used at start of tag")', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    editor('whoami\n  auto 4 true 60\n  success_match ^ok\n');
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => /tag/.test(m))).toEqual([]);
    warn.mockRestore();
  });
});
