/**
 * The host_cli command syntax (actions.md section 5), parsed by ONE module that the director's
 * validation and the form's CodeMirror language both use:
 *
 *   <command line>                                     (not indented)
 *       <prompt_regex> <sleep_seconds> <check_logs_boolean> [<max_timeout_seconds>]
 *       <condition> [<regex>]                          (zero or more, indented)
 *
 * Conditions: blocked_match, success_match, error_match, incompatible_match (each with a regex),
 * blocked_nonzero, success_zero, error_nonzero, incompatible_nonzero, cleanup (no argument).
 * Blank lines are ignored. Pure TypeScript: no DOM, no Node.
 */

export const HOST_CLI_CONDITIONS = [
  'blocked_match',
  'success_match',
  'error_match',
  'incompatible_match',
  'blocked_nonzero',
  'success_zero',
  'error_nonzero',
  'incompatible_nonzero',
  'cleanup',
] as const;
export type HostCliCondition = (typeof HOST_CLI_CONDITIONS)[number];

/** Conditions followed by a regular expression. */
export const MATCH_CONDITIONS: readonly HostCliCondition[] = ['blocked_match', 'success_match', 'error_match', 'incompatible_match'];

/** The sample parameters line: prompt auto, sleep 4, check logs true, timeout 60 (cleanup: sleep 3). */
export const HOST_CLI_SAMPLE_PARAMS = { prompt_regex: 'auto', sleep_seconds: 4, check_logs: true, max_timeout_seconds: 60 };
export const HOST_CLI_SAMPLE_CLEANUP_PARAMS = { prompt_regex: 'auto', sleep_seconds: 3, check_logs: true, max_timeout_seconds: 60 };

export interface HostCliDiagnostic {
  /** 1-based line number. */
  line: number;
  /** 0-based column range within the line. */
  from: number;
  to: number;
  message: string;
  severity: 'error' | 'warning';
}

export interface HostCliCommand {
  line: number;
  command: string;
  prompt_regex: string;
  sleep_seconds: number;
  check_logs: boolean;
  max_timeout_seconds: number | null;
  conditions: { type: HostCliCondition; value: string | null; line: number }[];
}

export interface HostCliParse {
  commands: HostCliCommand[];
  diagnostics: HostCliDiagnostic[];
}

/** What a line is, for highlighting: the same classification the parser uses. */
export type HostCliLineKind = 'blank' | 'command' | 'params' | 'condition' | 'orphan';

export interface HostCliToken {
  from: number;
  to: number;
  kind: 'command' | 'prompt' | 'number' | 'boolean' | 'condition' | 'regex' | 'invalid';
}

const isIndented = (line: string) => /^[ \t]/.test(line);
const NUMBER = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;

interface Word {
  text: string;
  from: number;
  to: number;
}

function words(line: string): Word[] {
  const out: Word[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) out.push({ text: m[0], from: m.index, to: m.index + m[0].length });
  return out;
}

function isCondition(word: string): word is HostCliCondition {
  return (HOST_CLI_CONDITIONS as readonly string[]).includes(word);
}

/** Checks a regular expression the way the actor will read it (best effort: JavaScript syntax). */
function regexError(source: string): string | null {
  try {
    new RegExp(source);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message.replace(/^Invalid regular expression: /, '') : 'invalid';
  }
}

/** Classifies every line (for highlighting) following the parser's state machine. */
export function classifyHostCliLines(text: string): HostCliLineKind[] {
  const kinds: HostCliLineKind[] = [];
  let state: 'start' | 'afterCommand' | 'inCommand' = 'start';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (!line.trim()) {
      kinds.push('blank');
      continue;
    }
    if (!isIndented(line)) {
      kinds.push('command');
      state = 'afterCommand';
    } else if (state === 'afterCommand') {
      kinds.push('params');
      state = 'inCommand';
    } else if (state === 'inCommand') kinds.push('condition');
    else kinds.push('orphan');
  }
  return kinds;
}

/** Tokens of one line of a given kind, for the CodeMirror highlighter. */
export function tokenizeHostCliLine(line: string, kind: HostCliLineKind): HostCliToken[] {
  const ws = words(line);
  if (kind === 'blank' || ws.length === 0) return [];
  if (kind === 'command') return [{ from: ws[0]!.from, to: line.trimEnd().length, kind: 'command' }];
  if (kind === 'orphan') return [{ from: ws[0]!.from, to: line.trimEnd().length, kind: 'invalid' }];
  if (kind === 'params') {
    return ws.map((w, i): HostCliToken => {
      if (i === 0) return { from: w.from, to: w.to, kind: 'prompt' };
      if (i === 1 || i === 3) return { from: w.from, to: w.to, kind: NUMBER.test(w.text) ? 'number' : 'invalid' };
      if (i === 2) return { from: w.from, to: w.to, kind: /^(true|false)$/i.test(w.text) ? 'boolean' : 'invalid' };
      return { from: w.from, to: w.to, kind: 'invalid' };
    });
  }
  const [first, ...rest] = ws;
  const tokens: HostCliToken[] = [{ from: first!.from, to: first!.to, kind: isCondition(first!.text) ? 'condition' : 'invalid' }];
  if (rest.length) tokens.push({ from: rest[0]!.from, to: line.trimEnd().length, kind: 'regex' });
  return tokens;
}

/** Parses a script; `diagnostics` is empty when it is valid. An empty script has no commands (callers decide whether that is allowed). */
export function parseHostCli(text: string): HostCliParse {
  const commands: HostCliCommand[] = [];
  const diagnostics: HostCliDiagnostic[] = [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const kinds = classifyHostCliLines(text);
  let current: HostCliCommand | null = null;
  const err = (line: number, from: number, to: number, message: string) => diagnostics.push({ line, from, to: Math.max(to, from + 1), message, severity: 'error' });

  lines.forEach((line, i) => {
    const n = i + 1;
    const kind = kinds[i]!;
    const ws = words(line);
    const end = line.trimEnd().length;
    switch (kind) {
      case 'blank':
        return;
      case 'orphan':
        err(n, ws[0]!.from, end, 'An indented line must follow a command line.');
        return;
      case 'command':
        if (current && current.prompt_regex === '') {
          err(current.line, 0, lines[current.line - 1]!.trimEnd().length, 'This command has no parameters line: indent "prompt_regex sleep_seconds check_logs_boolean [max_timeout_seconds]" under it, e.g. "    auto 4 true 60".');
        }
        current = { line: n, command: line.trim(), prompt_regex: '', sleep_seconds: 0, check_logs: true, max_timeout_seconds: null, conditions: [] };
        commands.push(current);
        return;
      case 'params': {
        if (!current) return;
        if (ws.length < 3 || ws.length > 4) {
          err(n, ws[0]!.from, end, `Expected "prompt_regex sleep_seconds check_logs_boolean [max_timeout_seconds]", found ${ws.length} value${ws.length === 1 ? '' : 's'}.`);
          current.prompt_regex = ws[0]!.text;
          return;
        }
        const [prompt, sleep, logs, timeout] = ws as [Word, Word, Word, Word | undefined];
        current.prompt_regex = prompt.text;
        if (prompt.text !== 'auto') {
          const re = regexError(prompt.text);
          if (re) err(n, prompt.from, prompt.to, `prompt_regex is not a valid regular expression: ${re}`);
        }
        if (!NUMBER.test(sleep.text)) err(n, sleep.from, sleep.to, 'sleep_seconds must be a number of seconds, e.g. 4.');
        else current.sleep_seconds = Number(sleep.text);
        if (!/^(true|false)$/i.test(logs.text)) err(n, logs.from, logs.to, 'check_logs_boolean must be true or false.');
        else current.check_logs = logs.text.toLowerCase() === 'true';
        if (timeout) {
          if (!INTEGER.test(timeout.text) || Number(timeout.text) < 1) err(n, timeout.from, timeout.to, 'max_timeout_seconds must be a whole number of seconds, at least 1.');
          else current.max_timeout_seconds = Number(timeout.text);
        }
        return;
      }
      case 'condition': {
        if (!current) return;
        const [first, ...rest] = ws as [Word, ...Word[]];
        if (!isCondition(first.text)) {
          err(n, first.from, first.to, `"${first.text}" is not a condition. Allowed: ${HOST_CLI_CONDITIONS.join(', ')}.`);
          return;
        }
        const value = rest.length ? line.slice(rest[0]!.from).trimEnd() : null;
        if (MATCH_CONDITIONS.includes(first.text)) {
          if (!value) err(n, first.from, first.to, `${first.text} needs a regular expression after it.`);
          else {
            const re = regexError(value);
            if (re) err(n, rest[0]!.from, end, `Not a valid regular expression: ${re}`);
          }
        } else if (value) err(n, rest[0]!.from, end, `${first.text} takes no value.`);
        current.conditions.push({ type: first.text, value, line: n });
        return;
      }
    }
  });
  const last = commands[commands.length - 1];
  if (last && last.prompt_regex === '') {
    err(last.line, 0, lines[last.line - 1]!.trimEnd().length, 'This command has no parameters line: indent "prompt_regex sleep_seconds check_logs_boolean [max_timeout_seconds]" under it, e.g. "    auto 4 true 60".');
  }
  return { commands, diagnostics };
}

/** One message for a whole script, e.g. for a field error: 'line 3: ...'. Null when valid. */
export function hostCliErrorSummary(text: string): string | null {
  const { diagnostics } = parseHostCli(text);
  if (!diagnostics.length) return null;
  const first = diagnostics[0]!;
  const more = diagnostics.length > 1 ? ` (${diagnostics.length - 1} more)` : '';
  return `line ${first.line}: ${first.message}${more}`;
}

/** A sample command in the syntax, with the sample defaults. */
export function sampleHostCliCommand(command: string, conditions: string[], cleanup = false): string {
  const p = cleanup ? HOST_CLI_SAMPLE_CLEANUP_PARAMS : HOST_CLI_SAMPLE_PARAMS;
  return [command, `    ${p.prompt_regex} ${p.sleep_seconds} ${p.check_logs} ${p.max_timeout_seconds}`, ...conditions.map((c) => `    ${c}`)].join('\n');
}
