/**
 * CodeMirror languages of the form: the host_cli command syntax (highlighting and inline diagnostics
 * from the same parser the director validates with) and a small Python highlighter for cloud scripts
 * and python host_cli scripts.
 */
import { StreamLanguage, getIndentUnit, type StreamParser } from '@codemirror/language';
import { countColumn, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { linter, type Diagnostic } from '@codemirror/lint';
import { parseHostCli, tokenizeHostCliLine, type HostCliLineKind } from '@/api/contracts/action-form-host-cli';

interface HostCliState {
  /** Where the line being read sits in the parser's state machine. */
  phase: 'start' | 'afterCommand' | 'inCommand';
  kind: HostCliLineKind;
  tokens: ReturnType<typeof tokenizeHostCliLine>;
}

const TOKEN_STYLE: Record<ReturnType<typeof tokenizeHostCliLine>[number]['kind'], string> = {
  command: 'keyword',
  prompt: 'string',
  number: 'number',
  boolean: 'atom',
  condition: 'typeName',
  regex: 'string-2',
  invalid: 'invalid',
};

const hostCliParser: StreamParser<HostCliState> = {
  name: 'host_cli',
  startState: () => ({ phase: 'start', kind: 'blank', tokens: [] }),
  copyState: (s) => ({ ...s, tokens: [...s.tokens] }),
  token(stream, state) {
    if (stream.sol()) {
      const line = stream.string;
      let kind: HostCliLineKind;
      if (!line.trim()) kind = 'blank';
      else if (!/^[ \t]/.test(line)) kind = 'command';
      else kind = state.phase === 'afterCommand' ? 'params' : state.phase === 'inCommand' ? 'condition' : 'orphan';
      if (kind === 'command') state.phase = 'afterCommand';
      else if (kind === 'params') state.phase = 'inCommand';
      state.kind = kind;
      state.tokens = tokenizeHostCliLine(line, kind);
    }
    const pos = stream.pos;
    const tok = state.tokens.find((t) => pos >= t.from && pos < t.to);
    if (tok) {
      stream.pos = tok.to;
      return TOKEN_STYLE[tok.kind];
    }
    const next = state.tokens.find((t) => t.from > pos);
    stream.pos = next ? next.from : stream.string.length;
    if (stream.pos === pos) stream.next();
    return null;
  },
  blankLine(state) {
    state.kind = 'blank';
  },
  // Enter after a command line indents its parameters line by one unit; every other new line starts at
  // column 0 (never a copy of the line above, which compounded when a script was typed line by line).
  indent(state, _textAfter, cx) {
    return state.kind === 'command' ? cx.unit : 0;
  },
};

export const hostCliLanguage = StreamLanguage.define(hostCliParser);

/**
 * Spaces or tabs typed into a line's leading whitespace that already holds an indent unit are dropped:
 * host_cli knows only "indented" or not, so a script typed with its own indentation after an
 * auto-indented Enter comes out as typed instead of indented twice.
 */
export function dropExtraIndent(view: EditorView, from: number, to: number, text: string): boolean {
  if (from !== to || !/^[ \t]+$/.test(text)) return false;
  const line = view.state.doc.lineAt(from);
  const before = line.text.slice(0, from - line.from);
  if (!/^[ \t]*$/.test(before)) return false;
  return countColumn(before, view.state.tabSize) >= getIndentUnit(view.state);
}

export const hostCliIndentGuard: Extension = EditorView.inputHandler.of(dropExtraIndent);

/** Inline diagnostics as the user types, from the shared parser. */
export function hostCliLinter(): Extension {
  return linter(
    (view) => {
      const text = view.state.doc.toString();
      const { diagnostics } = parseHostCli(text);
      return diagnostics.map((d): Diagnostic => {
        const line = view.state.doc.line(Math.min(d.line, view.state.doc.lines));
        const from = Math.min(line.from + d.from, line.to);
        const to = Math.max(from, Math.min(line.from + d.to, line.to));
        return { from, to: to === from && line.to > from ? from + 1 : to, severity: d.severity, message: d.message, source: 'host_cli' };
      });
    },
    { delay: 300 },
  );
}

// ---------------------------------------------------------------------------------------------
// Python (highlighting only).

const PY_KEYWORDS = new Set(
  'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);
const PY_ATOMS = new Set(['True', 'False', 'None']);
const PY_BUILTINS = new Set('print len range str int float dict list set tuple open isinstance enumerate zip map filter sorted min max sum any all'.split(' '));

interface PyState {
  triple: string | null;
}

const pythonParser: StreamParser<PyState> = {
  name: 'python',
  startState: () => ({ triple: null }),
  token(stream, state) {
    if (state.triple) {
      while (!stream.eol()) {
        if (stream.match(state.triple)) {
          state.triple = null;
          return 'string';
        }
        stream.next();
      }
      return 'string';
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    const triple = stream.match(/^[rbfu]{0,2}("""|''')/i) as RegExpMatchArray | null;
    if (triple) {
      state.triple = triple[1]!;
      return pythonParser.token(stream, state);
    }
    if (stream.match(/^[rbfu]{0,2}"([^"\\]|\\.)*"?/i) || stream.match(/^[rbfu]{0,2}'([^'\\]|\\.)*'?/i)) return 'string';
    if (stream.match(/^\d[\d_]*(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
    if (stream.match(/^@\w+/)) return 'meta';
    const word = stream.match(/^[A-Za-z_]\w*/) as RegExpMatchArray | null;
    if (word) {
      const w = word[0];
      if (PY_KEYWORDS.has(w)) return 'keyword';
      if (PY_ATOMS.has(w)) return 'atom';
      if (PY_BUILTINS.has(w)) return 'builtin';
      return 'variableName';
    }
    stream.next();
    return null;
  },
};

export const pythonLanguage = StreamLanguage.define(pythonParser);
