import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { describe, expect, it, vi } from 'vitest';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { scriptLanguage } from './script-language';

describe('the script editor language', () => {
  it('warns about none of its highlighting tags (no "Modifier function used at start of tag")', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const r = new CommandRegistry(() => emptyContext());
    r.register({ id: 'script.echo', title: 'Echo', category: 'Scripts', run: () => undefined });
    const view = new EditorView({ state: EditorState.create({ doc: '# c\nlet x = script.echo text="hi" n=$x.id\n', extensions: scriptLanguage(r) }) });
    view.destroy();
    expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => /tag/.test(m))).toEqual([]);
    warn.mockRestore();
  });
});
