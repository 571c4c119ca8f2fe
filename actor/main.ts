/**
 * `npm run actor -- --director URL --token TOKEN [--name N] [--address 127.0.0.2] [--allow-host-cli] [--state FILE] [--director-socket PATH]`
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ActorAgent } from './agent';

const { values } = parseArgs({
  options: {
    director: { type: 'string' },
    token: { type: 'string' },
    name: { type: 'string' },
    address: { type: 'string', default: '127.0.0.1' },
    'allow-host-cli': { type: 'boolean', default: false },
    state: { type: 'string' },
    'exit-with-stdin': { type: 'boolean', default: false },
    'director-socket': { type: 'string' },
  },
});

if (!values.director) {
  console.error('Usage: npm run actor -- --director URL --token TOKEN [--name N] [--address 127.0.0.2] [--allow-host-cli] [--state FILE]');
  process.exit(2);
}

const agent = new ActorAgent({
  director: values.director.replace(/\/$/, ''),
  bulkToken: values.token,
  name: values.name ?? `${os.hostname()}-${values.address}`,
  address: values.address ?? '127.0.0.1',
  allowHostCli: values['allow-host-cli'] === true,
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
