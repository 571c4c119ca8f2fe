import { readConfig, ConfigError } from './config';
import { passwordProblem } from './auth/password-policy';
import { openDb } from './db/index';
import { migrate } from './db/migrate';
import { buildApp } from './app';
import { loadTls } from './tls';
import { ensureAdmin, ensureDemoUsers, type CreatedCredential } from './seed/users';
import { seedDemo } from './seed/demo';
import { seedLabEvaluation } from './seed/lab-evaluation';
import { seedDemoMonitors } from './seed/demo-monitors';
import { startEngine, startLocalActors } from './engine/index';
import { warmUpSignIn } from './auth/warm-up';
import { endJobsWithoutEngine } from './engine/orphans';
import { cleanInterruptedUploads } from './pcap/interrupted';
import { sharedFilesOf } from './storage/shared-files';

async function main() {
  const config = readConfig();
  // A chosen first password meets the same rules as one set in the workbench (generated ones always do).
  for (const [name, value] of [['ADMIN_PASSWORD', config.adminPassword], ['DEMO_USER_PASSWORD', process.env.DEMO_USER_PASSWORD]] as const) {
    const problem = value ? passwordProblem(value) : null;
    if (problem) throw new ConfigError(`${name}: ${problem}.`);
  }
  // A director keeps its PostgreSQL connections open (PoolOptions).
  const db = await openDb(config, { keep: true });
  // Without its database a director can answer nothing: it ends, so whatever runs it can start it again.
  void db.stopped?.then((e) => {
    console.error(e.message);
    process.exit(1);
  });
  await migrate(db);
  const created: CreatedCredential[] = await ensureAdmin(db, config.adminEmail, config.adminPassword);
  const isFreshInstall = created.length > 0;
  if (config.seed === 'demo' && isFreshInstall) {
    created.push(...(await ensureDemoUsers(db, process.env.DEMO_USER_PASSWORD || undefined)));
    const summary = await seedDemo(db, { files: sharedFilesOf(db, config) });
    // Monitors and their run history (jobs too) come on top of the demo content's fixed set of jobs.
    const monitors = process.env.DEMO_MONITORS === '0' ? 0 : await seedDemoMonitors(db);
    console.log(`Seeded demo content: ${summary}, ${monitors} monitors with history`);
  }
  // The security lab's evaluation (npm run lab), also added to a demo install made before it existed.
  if (config.seed === 'demo' && (await seedLabEvaluation(db))) console.log('Added the evaluation "Lab: segmentation and egress" (npm run lab).');
  // A job left in progress that no engine holds (e.g. from before a crash) ends errored with the reason.
  const orphaned = await endJobsWithoutEngine(db);
  if (orphaned) console.log(`Ended ${orphaned} job(s) that no engine was running (errored: the director restarted).`);
  // A capture upload cut off by a crash ends invalid with the reason; its files and orphan files go.
  const cut = await cleanInterruptedUploads(db, sharedFilesOf(db, config));
  if (cut.uploads || cut.files) console.log(`Ended ${cut.uploads} interrupted capture upload(s) and removed ${cut.files} leftover capture file(s).`);
  const tls = loadTls(config);
  const app = await buildApp({ db, config, logger: process.env.LOG_REQUESTS === '1', ...(tls ? { https: tls } : {}) });
  const url = await app.listen({ port: config.port, host: config.host });
  // The first sign-in's scrypt and user lookup warmed up now, off the request path (server/auth/warm-up.ts).
  void warmUpSignIn(db).catch((e: Error) => console.error(`sign-in warm-up failed: ${e.message}`));
  const shown = url.replace('127.0.0.1', 'localhost');
  startEngine(app);
  if (config.seed === 'demo' && process.env.LOCAL_ACTORS !== '0') await startLocalActors(app, url, tls?.certFile);
  console.log('');
  console.log(`Vigil director is running on ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}.`);
  console.log(`Open ${shown}`);
  if (tls) {
    console.log(`HTTPS with ${tls.selfSigned ? `a self-signed certificate (${tls.certFile})` : `the certificate ${tls.certFile}`}.`);
    console.log(`  SHA-256 fingerprint: ${tls.fingerprint256}`);
  }
  if (config.trustProxy) console.log(`Trusting X-Forwarded-* from proxies (TRUST_PROXY=${String(config.trustProxy)}).`);
  if (created.length) {
    console.log('Sign in with (shown once; only password hashes are stored):');
    for (const c of created) console.log(`  ${c.role.padEnd(8)} ${c.email}  ${c.password}`);
  } else {
    console.log(`Sign in as ${config.adminEmail} with the password printed on the first start (or ADMIN_PASSWORD).`);
  }
  const stop = async () => {
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  if (e instanceof ConfigError) console.error(`Configuration error: ${e.message}`);
  else console.error(e);
  process.exit(1);
});
