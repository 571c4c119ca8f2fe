/**
 * `VIGIL_BULK_TOKEN=TOKEN npm run actor -- --director URL [--token-file FILE] [--name N] [--address 127.0.0.2] [--allow-host-cli] [--no-install-deps] [--state FILE] [--director-socket PATH]`
 *
 * --no-install-deps: an operator's "Install Dependencies" only looks for the programs the action types
 * need and reports them; without it the actor installs the missing ones (as root or with password-less sudo).
 *
 * The bulk token comes from the environment (VIGIL_BULK_TOKEN) or a file (--token-file), never from
 * the command line, where every user of the machine could read it (`ps`). An actor that already holds
 * its credential in --state needs no token at all.
 */
import './v8-flags'; // first: the flags apply to the code compiled after them
import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ActorAgent } from './agent';

const { values } = parseArgs({
  options: {
    director: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    name: { type: 'string' },
    address: { type: 'string', default: '127.0.0.1' },
    'allow-host-cli': { type: 'boolean', default: false },
    'no-install-deps': { type: 'boolean', default: false },
    state: { type: 'string' },
    'exit-with-stdin': { type: 'boolean', default: false },
    'director-socket': { type: 'string' },
  },
});

const USAGE = 'Usage: VIGIL_BULK_TOKEN=TOKEN npm run actor -- --director URL [--token-file FILE] [--name N] [--address 127.0.0.2] [--allow-host-cli] [--no-install-deps] [--state FILE]';
if (!values.director) {
  console.error(USAGE);
  process.exit(2);
}
if (values.token !== undefined) {
  console.error('--token is not accepted: a token on the command line is visible to every user of the machine (ps). Set VIGIL_BULK_TOKEN or pass --token-file FILE.');
  console.error(USAGE);
  process.exit(2);
}
let bulkToken = process.env.VIGIL_BULK_TOKEN || undefined;
if (values['token-file']) {
  try {
    bulkToken = fs.readFileSync(values['token-file'], 'utf8').trim() || undefined;
  } catch (e) {
    console.error(`Cannot read the token file: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  }
}
// Not passed on to what the actor runs (host CLI commands, replays).
delete process.env.VIGIL_BULK_TOKEN;

const agent = new ActorAgent({
  director: values.director.replace(/\/$/, ''),
  bulkToken,
  name: values.name ?? `${os.hostname()}-${values.address}`,
  address: values.address ?? '127.0.0.1',
  allowHostCli: values['allow-host-cli'] === true,
  installDeps: values['no-install-deps'] !== true,
  stateFile: values.state,
  directorSocket: values['director-socket'],
});

const stop = async () => {
  await agent.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
// Local actors started by the director end with it (their stdin is the director's pipe).
if (values['exit-with-stdin']) {
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();
}

agent.start().catch((e: Error) => {
  console.error(`The actor could not start: ${e.message}`);
  process.exit(1);
});
