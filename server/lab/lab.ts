/**
 * `npm run lab` and `npm run lab -- --down`: builds or removes the lab (layout.ts) on this machine
 * and records it in the director. Up is idempotent: a healthy lab only reloads its policy; a missing,
 * half-built or crashed one is cleaned and built anew. Down leaves no namespace, link, process, state
 * file or lab token behind.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LabActor } from '../../src/api/contracts/lab';
import { ACTOR_NODE_FLAGS } from '../../src/api/contracts/engine';
import { DirectorClient } from './director-client';
import type { LabLayout } from './layout';
import { buildNetworkSteps, planDown, planUp, type ProcessName } from './plan';
import { firewallScript, logGroupOf, ulogdConfig } from './policy';
import { LabError, checkHost, inNamespace, isLabProcess, observe, readState, runSteps, startDetached, writeState, type LabState, type Tools } from './system';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEFAULT_POLICY = path.join(REPO_ROOT, 'lab', 'policy.nft');

export interface LabOptions {
  layout: LabLayout;
  director: string;
  email: string;
  password: string | undefined;
  policy: string;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signIn(o: LabOptions): Promise<DirectorClient> {
  if (!o.password) throw new LabError('Set VIGIL_PASSWORD (and VIGIL_EMAIL, default admin@example.com) to the administrator\'s password: the lab records itself in the director as an administrator.', 2);
  return DirectorClient.signIn(o.director, o.email, o.password);
}

/** Loads the policy into the firewall namespace (nft checks it first and changes nothing when it is wrong). */
async function loadPolicy(tools: Tools, o: LabOptions): Promise<number> {
  const text = fs.readFileSync(o.policy, 'utf8');
  const group = logGroupOf(text) ?? 7;
  fs.writeFileSync(o.layout.nftPath, firewallScript(o.layout, o.policy));
  try {
    await inNamespace(tools, o.layout.fwNs, [tools.nft, '-f', o.layout.nftPath]);
  } catch (e) {
    const msg = (e as Error).message;
    if (/Operation not supported|No such file or directory.*netlink|Protocol not supported/i.test(msg)) {
      throw new LabError(`This kernel lacks nf_tables (nftables could not create the lab's table): ${msg}`, 3);
    }
    throw new LabError(`The policy ${o.policy} was not loaded: ${msg}`);
  }
  return group;
}

/** True once something accepts a connection on the Unix socket at `socketPath`. */
function socketAccepts(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect({ path: socketPath });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/**
 * Waits until the bridge listens on its socket. The actors are started after it: an actor that finds
 * no socket cannot register and stops (seen on a busy CI machine, where the bridge's start took longer
 * than the first actors').
 */
async function waitForBridge(layout: LabLayout, pid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await socketAccepts(layout.socketPath)) return;
    if (!isLabProcess(pid, layout)) break;
    await sleep(50);
  }
  const why = isLabProcess(pid, layout) ? `did not listen within ${timeoutMs / 1000} s` : 'stopped';
  throw new LabError(`The lab's bridge to the director ${why}. The end of bridge.log:\n${tailOf(path.join(layout.stateDir, 'bridge.log'), 12)}`);
}

async function waitForActors(client: DirectorClient, o: LabOptions, timeoutMs = 60_000): Promise<LabActor[]> {
  const deadline = Date.now() + timeoutMs;
  let actors: LabActor[] = [];
  while (Date.now() < deadline) {
    actors = await client.actors(o.layout.prefix);
    const ready = o.layout.zones.every((z) => actors.some((a) => a.sim_address === z.address && a.status === 'online' && a.zone));
    if (ready) return actors;
    await sleep(250);
  }
  const logOf = (z: { name: string }) => path.join(o.layout.stateDir, `actor-${z.name}.log`);
  const logs = o.layout.zones.map(logOf).join(', ');
  // The end of each missing actor's log, in the message: a lab that did not come up is removed with its logs.
  const missing = o.layout.zones.filter((z) => !actors.some((a) => a.sim_address === z.address && a.status === 'online' && a.zone));
  const tails = missing.map((z) => `\nThe end of actor-${z.name}.log:\n${tailOf(logOf(z), 12)}`).join('');
  throw new LabError(`The lab's actors did not come online within ${timeoutMs / 1000} s (see ${logs}); registered: ${actors.map((a) => `${a.name} ${a.status}`).join(', ') || 'none'}.${tails}`);
}

/** The last `lines` lines of a file, or why there are none. */
export function tailOf(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') || '(empty)';
  } catch (e) {
    return `(not readable: ${(e as Error).message})`;
  }
}

export async function labUp(o: LabOptions): Promise<{ reloaded: boolean; actors: LabActor[]; ms: number }> {
  const t0 = Date.now();
  if (!fs.existsSync(o.policy)) throw new LabError(`The policy file ${o.policy} does not exist.`, 2);
  const tools = checkHost();
  const client = await signIn(o);
  const { layout } = o;
  const plan = planUp(layout, await observe(tools, layout), o.director);
  if (plan.kind === 'reload-policy') {
    const running = /\[log1\]\ngroup=(\d+)/.exec(fs.readFileSync(layout.ulogdConf, 'utf8'))?.[1];
    const wanted = logGroupOf(fs.readFileSync(o.policy, 'utf8')) ?? 7;
    if (running && Number(running) !== wanted) {
      throw new LabError(`The running lab's sensor reads NFLOG group ${running} and ${o.policy} logs to group ${wanted}: run npm run lab -- --down first, then npm run lab -- --policy ${o.policy}.`);
    }
    await loadPolicy(tools, o);
    const state = readState(layout);
    if (state) writeState(layout, { ...state, policy: o.policy });
    o.log(`The lab ${layout.prefix} is already up; its firewall now runs ${o.policy}.`);
    return { reloaded: true, actors: await client.actors(layout.prefix), ms: Date.now() - t0 };
  }
  if (plan.cleanup.length) o.log(`Cleaning what an earlier run of ${layout.prefix} left behind.`);
  await runSteps(tools, layout, plan.cleanup);
  fs.mkdirSync(layout.stateDir, { recursive: true, mode: 0o755 });
  const state: LabState = { prefix: layout.prefix, director: o.director, policy: o.policy, pids: {}, started_at: new Date().toISOString() };
  const record = (name: ProcessName, pid: number) => {
    state.pids[name] = pid;
    writeState(layout, state);
  };
  writeState(layout, state);
  try {
    await runSteps(tools, layout, buildNetworkSteps(layout));
    await inNamespace(tools, layout.fwNs, ['sysctl', '-qw', 'net.ipv4.ip_forward=1']);
    const group = await loadPolicy(tools, o);
    fs.writeFileSync(layout.eventsPath, '', { mode: 0o644 });
    fs.writeFileSync(layout.ulogdConf, ulogdConfig(layout, group, tools.pluginDir));
    record('ulogd', startDetached(tools, layout.fwNs, [tools.ulogd, '-c', layout.ulogdConf], path.join(layout.stateDir, 'ulogd.out'), REPO_ROOT));
    const url = new URL(o.director);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const node = [process.execPath, ...ACTOR_NODE_FLAGS, '--import', 'tsx'];
    record('bridge', startDetached(tools, null, [...node, path.join(REPO_ROOT, 'server/lab/bridge.ts'), layout.socketPath, url.hostname, port], path.join(layout.stateDir, 'bridge.log'), REPO_ROOT));
    await waitForBridge(layout, state.pids.bridge!);
    const setup = await client.setup({
      prefix: layout.prefix,
      events_path: layout.eventsPath,
      zones: layout.zones.map((z) => ({ name: z.name, cidr: z.cidr, gateway: z.gateway })),
    });
    // The token in a file only root reads, never on the command line (ps shows that to every user).
    const tokenFile = path.join(layout.stateDir, 'bulk-token');
    fs.writeFileSync(tokenFile, setup.bulk_token, { mode: 0o600 });
    for (const z of layout.zones) {
      const argv = [...node, path.join(REPO_ROOT, 'actor/main.ts'), '--director', o.director, '--director-socket', layout.socketPath, '--token-file', tokenFile,
        '--name', `${layout.prefix}-${z.name}`, '--address', z.address, '--state', path.join(layout.stateDir, `actor-${z.name}.json`)];
      record(`actor-${z.name}`, startDetached(tools, z.ns, argv, path.join(layout.stateDir, `actor-${z.name}.log`), REPO_ROOT));
    }
    const actors = await waitForActors(client, o);
    if (!isLabProcess(state.pids.ulogd!, layout)) {
      const log = fs.existsSync(path.join(layout.stateDir, 'ulogd.log')) ? fs.readFileSync(path.join(layout.stateDir, 'ulogd.log'), 'utf8').slice(-2000) : '';
      throw new LabError(`ulogd2 stopped, so the firewall's log would reach nobody:\n${log}`);
    }
    return { reloaded: false, actors, ms: Date.now() - t0 };
  } catch (e) {
    o.log('The lab did not come up; removing what was built.');
    await runSteps(tools, layout, planDown(layout, await observe(tools, layout))).catch(() => {});
    await client.remove(layout.prefix).catch(() => {});
    throw e;
  }
}

export async function labDown(o: LabOptions): Promise<{ ms: number; directorError: string | null }> {
  const t0 = Date.now();
  const tools = checkHost();
  const { layout } = o;
  const observed = await observe(tools, layout);
  await runSteps(tools, layout, planDown(layout, observed));
  let directorError: string | null = null;
  try {
    const client = await signIn({ ...o, director: observed.director ?? o.director });
    const removed = await client.remove(layout.prefix);
    o.log(`Director: removed ${removed.actors} actors, ${removed.zones} zones, ${removed.devices} firewall device, ${removed.links} links, ${removed.tokens} lab tokens.`);
  } catch (e) {
    directorError = (e as Error).message;
  }
  return { ms: Date.now() - t0, directorError };
}
