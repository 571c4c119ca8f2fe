/**
 * `npm run lab [-- --policy FILE] [--prefix NAME] [--subnet 10.77] [--director URL]` and
 * `npm run lab -- --down`. Signs in as VIGIL_EMAIL (default admin@example.com) / VIGIL_PASSWORD.
 * Exit codes: 0 done, 1 failed, 2 usage, not root or no credentials, 3 the machine lacks a tool or kernel feature.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LAB_PREFIX, LAB_PREFIX_MESSAGE } from '../../src/api/contracts/lab';
import { DEFAULT_PREFIX, DEFAULT_RUN_DIR, DEFAULT_SUBNET, labLayout, validSubnet } from './layout';
import { DEFAULT_POLICY, labDown, labUp } from './lab';
import { LabError } from './system';

const USAGE = 'Usage: npm run lab -- [--down] [--policy FILE] [--prefix vigil-lab] [--subnet 10.77] [--director http://127.0.0.1:3000]';

export async function main(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        down: { type: 'boolean', default: false },
        policy: { type: 'string' },
        prefix: { type: 'string', default: process.env.VIGIL_LAB_PREFIX ?? DEFAULT_PREFIX },
        subnet: { type: 'string', default: process.env.VIGIL_LAB_SUBNET ?? DEFAULT_SUBNET },
        director: { type: 'string', default: process.env.VIGIL_DIRECTOR ?? 'http://127.0.0.1:3000' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    log(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    log(USAGE);
    return 0;
  }
  if (!LAB_PREFIX.test(values.prefix)) return log(`${LAB_PREFIX_MESSAGE}.\n${USAGE}`), 2;
  if (!validSubnet(values.subnet)) return log(`--subnet is the lab's private /16 as 10.N (e.g. 10.77).\n${USAGE}`), 2;
  const opts = {
    layout: labLayout(values.prefix, values.subnet, process.env.VIGIL_LAB_RUN_DIR ?? DEFAULT_RUN_DIR),
    director: values.director.replace(/\/$/, ''),
    email: process.env.VIGIL_EMAIL ?? 'admin@example.com',
    password: process.env.VIGIL_PASSWORD,
    policy: path.resolve(values.policy ?? DEFAULT_POLICY),
    log,
  };
  try {
    if (values.down) {
      const down = await labDown(opts);
      log(`Lab ${values.prefix} removed in ${(down.ms / 1000).toFixed(1)} s: no namespace, link or process of it is left.`);
      if (down.directorError) {
        log(`The director still lists it: ${down.directorError}`);
        return 1;
      }
      return 0;
    }
    const up = await labUp(opts);
    if (!up.reloaded) {
      log(`Lab ${values.prefix} up in ${(up.ms / 1000).toFixed(1)} s, firewall policy ${opts.policy}:`);
      for (const a of up.actors) log(`  actor ${a.name} at ${a.sim_address} in zone "${a.zone ?? ''}" (${a.status})`);
      log('Run the evaluation "Lab: segmentation and egress" from the user actor to the server actor; npm run lab -- --down removes the lab.');
    }
    return 0;
  } catch (e) {
    log(e instanceof Error ? e.message : String(e));
    return e instanceof LabError ? e.exitCode : 1;
  }
}

if (process.argv[1] && /lab[\\/]cli\.ts$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
