/**
 * Vigil's terminal runner: `npm run vigil -- run FILE [--director URL] [--continue] [--dry-run] [--out DIR]`.
 * Ctrl+C stops a running script and still prints its transcript.
 * Signs in with VIGIL_EMAIL / VIGIL_PASSWORD, then runs the script's steps through the same command
 * registry as the workbench, with no dock: commands that open panes are refused with a message.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setCsrfToken } from '../src/api/csrf';
import { ApiError, configureHttp, http } from '../src/api/http';
import type { Environment } from '../src/api/contracts/session';
import { signIn } from './sign-in';
import type { Permission } from '../src/api/contracts/permissions';
import { headlessCommands } from '../src/app/headless-commands';
import { commands } from '../src/commands/registry';
import { parseScript } from '../src/commands/script/parse';
import { formatTranscript, runScript } from '../src/commands/script/run';
import { setDisplayTimeZone } from '../src/ui/datetime';

const USAGE = `Usage: npm run vigil -- run FILE [--director URL] [--continue] [--dry-run] [--out DIR]
  Credentials come from VIGIL_EMAIL and VIGIL_PASSWORD; the director URL from --director or
  VIGIL_DIRECTOR_URL (default http://localhost:3000). --out saves the files that steps export
  (jobs.export, reports.exportCsv, reports.exportPdf) into DIR.`;

interface Options {
  file: string;
  director: string;
  continueOnError: boolean;
  dryRun: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Options | string {
  const [verb, ...rest] = argv;
  if (verb !== 'run') return verb ? `Unknown verb "${verb}".` : 'Nothing to do.';
  let file: string | undefined;
  let director = process.env.VIGIL_DIRECTOR_URL ?? 'http://localhost:3000';
  let continueOnError = false;
  let dryRun = false;
  let out: string | null = null;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--director') {
      const v = rest[++i];
      if (!v) return '--director needs a URL.';
      director = v;
    } else if (a.startsWith('--director=')) director = a.slice('--director='.length);
    else if (a === '--continue') continueOnError = true;
    else if (a === '--dry-run') dryRun = true;
    else if (a === '--out') {
      const v = rest[++i];
      if (!v) return '--out needs a directory.';
      out = v;
    } else if (a.startsWith('--out=')) out = a.slice('--out='.length);
    else if (a.startsWith('--')) return `Unknown option ${a}.`;
    else if (!file) file = a;
    else return `Only one script file may be given (got "${file}" and "${a}").`;
  }
  if (!file) return 'A script FILE is required.';
  return { file, director: director.replace(/\/$/, ''), continueOnError, dryRun, out };
}

/** A step's result that is an exported file: `{ filename, csv }` (jobs.export, reports.exportCsv) or `{ filename, base64 }` (reports.exportPdf). */
function exportedFile(result: unknown): { filename: string; data: string | Uint8Array } | null {
  if (!result || typeof result !== 'object') return null;
  const { filename, csv, base64 } = result as Record<string, unknown>;
  if (typeof filename !== 'string' || !filename) return null;
  if (typeof csv === 'string') return { filename, data: csv };
  if (typeof base64 === 'string') return { filename, data: new Uint8Array(Buffer.from(base64, 'base64')) };
  return null;
}

export async function main(argv: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === 'string') {
    err(`${opts}\n${USAGE}`);
    return 2;
  }
  const email = process.env.VIGIL_EMAIL;
  const password = process.env.VIGIL_PASSWORD;
  if (!email || !password) {
    err(`Set VIGIL_EMAIL and VIGIL_PASSWORD to sign in.\n${USAGE}`);
    return 2;
  }
  let source: string;
  try {
    source = fs.readFileSync(opts.file, 'utf8');
  } catch {
    err(`Cannot read the script file "${opts.file}".`);
    return 2;
  }
  let env: Environment;
  try {
    const { cookie, answer } = await signIn(opts.director, email, password);
    configureHttp({ baseUrl: opts.director, headers: { Cookie: cookie } });
    setCsrfToken(answer.csrf_token);
    env = await http.get<Environment>('/environment.json');
  } catch (e) {
    err(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    return 2;
  }
  // Times and report days in the user's profile zone, as the workbench shows them (MON-051), not the terminal's.
  setDisplayTimeZone(env.userTimeZone);
  const permissions = new Set<Permission>(env.user_rights);
  const licensed = new Set(env.licensed_features);
  commands.setContextProvider(() => ({
    user: env.user,
    permissions,
    licensedFeatures: licensed,
    activePane: null,
    dock: null,
    queryClient: null,
    // The script states what it wants done; a terminal run answers its confirmations with yes.
    confirm: async () => true,
    // No panes in a terminal: commands that need a pane's context say so.
    pane: () => undefined,
  }));
  commands.registerAll(headlessCommands());
  const saved: string[] = [];
  const saveExport = (_step: unknown, result: unknown) => {
    const file = exportedFile(result);
    if (!file || !opts.out) return;
    fs.mkdirSync(opts.out, { recursive: true });
    const target = path.join(opts.out, path.basename(file.filename));
    fs.writeFileSync(target, file.data);
    saved.push(target);
  };
  // Ctrl+C stops the run: a waiting step (jobs.wait, script.wait) gives up at once and the transcript is printed.
  const stop = new AbortController();
  const onInterrupt = () => {
    err('Stopping the script…');
    stop.abort();
  };
  process.once('SIGINT', onInterrupt);
  // Printed only now, so a Ctrl+C right after it finds the handler in place.
  out(`Running ${opts.file} on ${opts.director} as ${env.user.email}${opts.dryRun ? ' (dry run)' : ''}`);
  const result = await runScript(commands, parseScript(source), {
    headless: true,
    continueOnError: opts.continueOnError,
    dryRun: opts.dryRun,
    onResult: saveExport,
    signal: stop.signal,
  }).finally(() => process.off('SIGINT', onInterrupt));
  out(formatTranscript(result));
  for (const f of saved) out(`Saved ${f}`);
  return result.outcome === 'ok' ? 0 : 1;
}

// Run as cli/vigil.ts (tsx) or as its bundle (dist-cli/vigil.cjs, cli/build.ts).
const invokedDirectly = process.argv[1] && /vigil\.(ts|cjs)$/.test(process.argv[1]);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : String(e));
      process.exit(2);
    },
  );
}
