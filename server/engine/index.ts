/** Starting the engine with the director, and the two local actors of a demo install. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { engineFor, type Engine, type EngineOptions } from './engine';
import { createBulkToken } from './secrets';
import { EveTail, parseEveConfig } from './eve-tail';
import { FileSources } from '../integrations/file-sources';
import { withReplayScript } from './replay-script';
import { sharedFilesOf } from '../storage/shared-files';
import { withRunAsUser } from './run-as';
import { withTransferKey } from './transfer-key';
import { MonitorScheduler, monitorTickMs } from '../monitors/scheduler';
import { RollupFlusher } from '../reports/rollup-flusher';
import { startPgliteMaintenance } from '../db/pglite-maintenance';
import { ACTOR_NODE_FLAGS } from '../../src/api/contracts/engine';

export { engineFor } from './engine';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LOCAL_ACTOR_ADDRESSES = ['127.0.0.2', '127.0.0.3'];

/** Starts the engine loop of the app's database; it stops when the app closes. */
export function startEngine(app: FastifyInstance, opts?: Partial<EngineOptions>): Engine {
  const engine = engineFor(app.db, opts);
  // Both replay types carry the replay script of their upload's processed capture in the signed work.
  for (const type of ['pcap', 'captive_ioc_pcap']) engine.preparers.set(type, (tx, details) => withReplayScript(tx, sharedFilesOf(tx, app.config), details));
  // host_cli carries its run-as user profile's OS user name.
  engine.preparers.set('host_cli', withRunAsUser);
  engine.preparers.set('file_transfer', (_tx, details) => Promise.resolve(withTransferKey(details)));
  engine.start();
  // Monitors: due runs become jobs of this engine; finished ones are judged (server/monitors/).
  const monitors = new MonitorScheduler(app.db, { tickMs: monitorTickMs(), onStarted: () => engine.kick() });
  monitors.start();
  engine.onStop(() => void monitors.stop());
  // The report facts the engine's writes queue reach the rollups about once a second (migration 028).
  const rollups = new RollupFlusher(app.db);
  rollups.start();
  engine.onStop(() => void rollups.stop());
  // PGlite runs no autovacuum: the director vacuums and analyzes its tables as PostgreSQL's would.
  const maintenance = startPgliteMaintenance(app.db);
  if (maintenance) engine.onStop(() => void maintenance.stop());
  for (const source of parseEveConfig(process.env.SURICATA_EVE)) {
    const tail = new EveTail(app.db, source, () => engine.opts.detectionWindowMs);
    tail.start();
    engine.onStop(() => tail.stop());
  }
  // Integrations whose events the director reads from a file (EVE, nftables/ulogd JSON).
  const files = new FileSources(app.db, () => engine.opts.detectionWindowMs);
  files.start();
  engine.onStop(() => files.stop());
  return engine;
}

/**
 * Starts two actor processes on 127.0.0.2 and 127.0.0.3 that register with a fresh bulk token and
 * keep their credential in DATA_DIR/local-actors, so a restarted director finds the same actors.
 * They end with the director (their stdin is its pipe).
 */
/** `caFile`: the director's self-signed certificate, which the local actors trust (NODE_EXTRA_CA_CERTS). */
export async function startLocalActors(app: FastifyInstance, directorUrl: string, caFile?: string): Promise<ChildProcess[]> {
  const dir = path.join(app.config.dataDir, 'local-actors');
  fs.mkdirSync(dir, { recursive: true });
  const { token } = await createBulkToken(app.db, { name: 'local actors', hours: 1 });
  const children = LOCAL_ACTOR_ADDRESSES.map((address, i) => {
    const child = spawn(
      process.execPath,
      [...ACTOR_NODE_FLAGS, '--import', 'tsx', path.join(REPO_ROOT, 'actor', 'main.ts'), '--director', directorUrl, '--name', `local-actor-${i + 1}`, '--address', address,
        '--state', path.join(dir, `${address}.json`), '--exit-with-stdin',
        // LOCAL_ACTORS_INSTALL_DEPS=0: "Install Dependencies" only looks, it installs no system package.
        ...(process.env.LOCAL_ACTORS_INSTALL_DEPS === '0' ? ['--no-install-deps'] : [])],
      // The token in the environment, never in the command line (ps shows that to every user).
      { cwd: REPO_ROOT, stdio: ['pipe', 'inherit', 'inherit'], env: { ...process.env, VIGIL_BULK_TOKEN: token, ...(caFile ? { NODE_EXTRA_CA_CERTS: caFile } : {}) } },
    );
    child.on('error', (e) => console.error(`local actor ${address} failed: ${e.message}`));
    return child;
  });
  engineFor(app.db).onStop(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  });
  console.log(`Started local actors on ${LOCAL_ACTOR_ADDRESSES.join(' and ')} (LOCAL_ACTORS=0 disables them).`);
  return children;
}
