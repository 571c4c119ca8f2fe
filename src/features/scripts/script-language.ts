import { autocompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { StreamLanguage, type StringStream } from '@codemirror/language';
import { linter, type Diagnostic as CmDiagnostic } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import { argSpecs, checkScript } from '@/commands/script/check';
import { parseScript } from '@/commands/script/parse';
import type { CommandRegistry } from '@/commands/registry';

interface LineState {
  sawCommand: boolean;
}

/** Highlighting: comments, `let`, command ids, argument names, strings, variables. */
const scriptStream = StreamLanguage.define<LineState>({
  startState: () => ({ sawCommand: false }),
  token(stream: StringStream, state: LineState) {
    if (stream.sol()) state.sawCommand = false;
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.peek() === '"') {
      stream.next();
      let escaped = false;
      let ch: string | void;
      while ((ch = stream.next()) !== undefined) {
        if (ch === '"' && !escaped) break;
        escaped = !escaped && ch === '\\';
      }
      return 'string';
    }
    if (stream.match(/^\$[\w.]+/)) return 'variableName';
    if (!state.sawCommand && stream.match(/^let\b/)) return 'keyword';
    if (stream.match(/^[\w-]+(?==)/)) return 'propertyName';
    if (stream.eat('=')) return 'operator';
    if (!state.sawCommand && stream.match(/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+/)) {
      state.sawCommand = true;
      // A tag name, then its modifier ('function' alone is a modifier: CodeMirror warns about it).
      return 'variableName.function';
    }
    if (!stream.match(/^[^\s"#]+/)) stream.next();
    return 'atom';
  },
});

function commandCompletions(registry: CommandRegistry): Completion[] {
  return registry.visible().map((c) => {
    const specs = argSpecs(c);
    const args = specs.map((s) => `${s.name}${s.required ? '' : '?'}: ${s.type}`).join(', ');
    return { label: c.id, type: 'function', detail: c.title, info: `${c.category}: ${c.title}${args ? `\nArguments: ${args}` : '\nNo arguments'}` };
  });
}

/** Completes command ids at the start of a line (or after `let x =`), then the command's argument names. */
export function scriptCompletions(registry: CommandRegistry) {
  return (context: CompletionContext): CompletionResult | null => {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    if (/^\s*#/.test(before)) return null;
    const head = /^\s*(?:let\s+\w+\s*=\s*)?([\w.-]*)$/.exec(before);
    if (head) {
      const word = head[1] ?? '';
      if (!word && !context.explicit && before.trim() !== '') return null;
      return { from: context.pos - word.length, options: commandCompletions(registry), validFor: /^[\w.-]*$/ };
    }
    const cmd = /^\s*(?:let\s+\w+\s*=\s*)?([\w.-]+)\s/.exec(before);
    const arg = /(?:^|\s)([\w-]*)$/.exec(before);
    // Inside a quoted value: nothing to complete.
    const quotes = before.replace(/\\./g, '').split('"').length - 1;
    if (!cmd || !arg || quotes % 2 === 1) return null;
    const command = registry.get(cmd[1] ?? '');
    if (!command) return null;
    const used = new Set([...before.matchAll(/([\w-]+)=/g)].map((m) => m[1]));
    const options = argSpecs(command)
      .filter((s) => !used.has(s.name))
      .map((s) => ({
        label: `${s.name}=`,
        type: 'property',
        detail: `${s.type}${s.required ? ', required' : ''}`,
        ...(s.oneOf.length ? { info: `One of: ${s.oneOf.join(', ')}` } : {}),
      }));
    return { from: context.pos - (arg[1] ?? '').length, options, validFor: /^[\w-]*$/ };
  };
}

/** Marks unknown commands, invalid arguments and syntax errors as the user types. */
export function scriptLinter(registry: CommandRegistry) {
  return linter(
    (view) => {
      const doc = view.state.doc;
      const diagnostics = checkScript(parseScript(doc.toString()), registry, registry.context());
      return diagnostics.map((d): CmDiagnostic => {
        const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
        const from = Math.min(line.from + Math.max(d.column - 1, 0), line.to);
        const wordEnd = /^\S*/.exec(line.text.slice(from - line.from))?.[0].length ?? 0;
        return { from, to: Math.max(from + wordEnd, Math.min(from + 1, line.to)), severity: d.severity, message: d.message };
      });
    },
    { delay: 250 },
  );
}

export function scriptLanguage(registry: CommandRegistry): Extension[] {
  return [scriptStream, autocompletion({ override: [scriptCompletions(registry)], activateOnTyping: true }), scriptLinter(registry)];
}
