/**
 * The script language: one command per line, a thin syntax over the command registry.
 *
 *   # a comment
 *   pane.open.jobs
 *   jobs.cancel id=812
 *   jobs.export filter="status:completed" format=csv
 *   let job = run.sequence sim_id=4 attack_node_id_1=2 target_node_id_1=3
 *   jobs.wait id=$job.id
 *
 * Values are bare words, double-quoted strings (with \" \\ \n \t escapes) or variable references
 * ($name or $name.path.to.field, alone or inside a quoted string as ${name.path}).
 */

export type ArgValue = { kind: 'literal'; text: string } | { kind: 'template'; parts: (string | VarRef)[] } | VarRef;

export interface VarRef {
  kind: 'var';
  name: string;
  path: string[];
}

export interface ScriptStep {
  line: number;
  /** Column (1-based) where the command id starts. */
  column: number;
  bind?: string;
  commandId: string;
  args: Record<string, ArgValue>;
  /** Argument name -> 1-based column, for pointing errors at the argument. */
  argColumns: Record<string, number>;
  source: string;
}

export interface ParseError {
  line: number;
  column: number;
  message: string;
}

export interface ParsedScript {
  steps: ScriptStep[];
  errors: ParseError[];
}

const ID = /^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)+$/;
const NAME = /^[A-Za-z_]\w*$/;
const KEY = /^[A-Za-z_][\w[\]-]*$/;

class LineReader {
  pos = 0;
  constructor(
    readonly text: string,
    readonly line: number,
  ) {}
  get done() {
    return this.pos >= this.text.length;
  }
  peek() {
    return this.text[this.pos] ?? '';
  }
  skipSpaces() {
    while (!this.done && /\s/.test(this.peek())) this.pos++;
  }
  column() {
    return this.pos + 1;
  }
  word(): string {
    const start = this.pos;
    while (!this.done && !/[\s=]/.test(this.peek()) && this.peek() !== '#') this.pos++;
    return this.text.slice(start, this.pos);
  }
}

class ScriptSyntaxError extends Error {
  constructor(
    message: string,
    public column: number,
  ) {
    super(message);
  }
}

function parseVarRef(raw: string, column: number): VarRef {
  const [name = '', ...path] = raw.split('.');
  if (!NAME.test(name) || path.some((p) => !/^\w+$/.test(p))) throw new ScriptSyntaxError(`"$${raw}" is not a valid variable reference`, column);
  return { kind: 'var', name, path };
}

function parseQuoted(r: LineReader): ArgValue {
  const startCol = r.column();
  r.pos++; // opening quote
  const parts: (string | VarRef)[] = [];
  let buf = '';
  while (true) {
    if (r.done) throw new ScriptSyntaxError('Unterminated string: a closing " is missing', startCol);
    const ch = r.peek();
    if (ch === '"') {
      r.pos++;
      break;
    }
    if (ch === '\\') {
      const next = r.text[r.pos + 1];
      const map: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', $: '$' };
      if (next === undefined || !(next in map)) throw new ScriptSyntaxError(`Unknown escape "\\${next ?? ''}"`, r.column());
      buf += map[next];
      r.pos += 2;
      continue;
    }
    if (ch === '$' && r.text[r.pos + 1] === '{') {
      const close = r.text.indexOf('}', r.pos);
      if (close < 0) throw new ScriptSyntaxError('Unterminated ${…} reference', r.column());
      if (buf) parts.push(buf);
      buf = '';
      parts.push(parseVarRef(r.text.slice(r.pos + 2, close), r.column()));
      r.pos = close + 1;
      continue;
    }
    buf += ch;
    r.pos++;
  }
  if (buf || parts.length === 0) parts.push(buf);
  if (parts.length === 1 && typeof parts[0] === 'string') return { kind: 'literal', text: parts[0] };
  return { kind: 'template', parts };
}

function parseValue(r: LineReader): ArgValue {
  if (r.peek() === '"') return parseQuoted(r);
  const col = r.column();
  const start = r.pos;
  while (!r.done && !/\s/.test(r.peek())) {
    if (r.peek() === '"') throw new ScriptSyntaxError('A quote may only start a value: write key="…"', r.column());
    r.pos++;
  }
  const raw = r.text.slice(start, r.pos);
  if (raw === '') throw new ScriptSyntaxError('A value is missing after "="', col);
  if (raw.startsWith('$')) return parseVarRef(raw.slice(1), col);
  return { kind: 'literal', text: raw };
}

function parseLine(text: string, line: number): ScriptStep | null {
  const r = new LineReader(text, line);
  r.skipSpaces();
  if (r.done || r.peek() === '#') return null;
  let bind: string | undefined;
  let col = r.column();
  let first = r.word();
  if (first === 'let') {
    r.skipSpaces();
    const nameCol = r.column();
    const name = r.word();
    if (!NAME.test(name)) throw new ScriptSyntaxError(name ? `"${name}" is not a valid variable name` : 'A variable name is missing after "let"', nameCol);
    r.skipSpaces();
    if (r.peek() !== '=') throw new ScriptSyntaxError(`Expected "=" after "let ${name}"`, r.column());
    r.pos++;
    r.skipSpaces();
    bind = name;
    col = r.column();
    first = r.word();
  }
  if (!first) throw new ScriptSyntaxError('A command id is missing', col);
  if (!ID.test(first)) throw new ScriptSyntaxError(`"${first}" is not a command id (ids look like jobs.cancel)`, col);
  const args: Record<string, ArgValue> = {};
  const argColumns: Record<string, number> = {};
  while (true) {
    r.skipSpaces();
    if (r.done || r.peek() === '#') break;
    const keyCol = r.column();
    const key = r.word();
    if (r.peek() !== '=') throw new ScriptSyntaxError(`Expected name=value, got "${key || r.peek()}"`, keyCol);
    if (!KEY.test(key)) throw new ScriptSyntaxError(`"${key}" is not a valid argument name`, keyCol);
    if (key in args) throw new ScriptSyntaxError(`Argument "${key}" is given twice`, keyCol);
    r.pos++;
    args[key] = parseValue(r);
    argColumns[key] = keyCol;
  }
  return { line, column: col, commandId: first, args, argColumns, source: text.trim(), ...(bind ? { bind } : {}) };
}

export function parseScript(source: string): ParsedScript {
  const steps: ScriptStep[] = [];
  const errors: ParseError[] = [];
  source.split(/\r?\n/).forEach((text, i) => {
    try {
      const step = parseLine(text, i + 1);
      if (step) steps.push(step);
    } catch (e) {
      if (e instanceof ScriptSyntaxError) errors.push({ line: i + 1, column: e.column, message: e.message });
      else throw e;
    }
  });
  return { steps, errors };
}

export function argUsesVariables(value: ArgValue): boolean {
  return value.kind === 'var' || (value.kind === 'template' && value.parts.some((p) => typeof p !== 'string'));
}
