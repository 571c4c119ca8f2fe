/**
 * The monitor scheduler under load: 1,000 monitors (one port_scan between two connected actors, every
 * minute) all due within the same minute, on PGlite in memory (or BENCH_DATABASE_URL). A scheduler
 * ticking every MONITOR_TICK_MS (250) starts them; prints the lag from due (next_run_at) to the job
 * created and started (monitor_runs.started_at), p50/p95/p99/max, and the RSS growth over the wave
 * (after a full GC on both sides; npm run bench:monitors passes --expose-gc). The engine does
 * not run, so the figures are the scheduler's alone. Nothing is asserted.
 */
import { openDb } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { createMonitor } from '../server/monitors/service';
import { MonitorScheduler } from '../server/monitors/scheduler';
import { newActionBody, type MonitorBody } from '../src/api/contracts/monitors';
import { percentile, printTable, summarize } from './stats';

const MONITORS = Number(process.env.BENCH_MONITORS ?? 1000);
const TICK_MS = Number(process.env.MONITOR_TICK_MS ?? 250);

async function main() {
  const db = await openDb({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir: undefined });
  await migrate(db);
  const [action] = await db.query<{ id: number }>(`insert into actions (vid, name, action_type, approved, details) values ('A-MON-BENCH', 'bench scan', 'port_scan', true, '{"ports_list":"80"}') returning id`);
  const nodes = await db.query<{ id: number }>(
    `insert into nodes (name, node_type, status, token_hash) values ('bench-src', 'endpoint', 'online', 'x1'), ('bench-dst', 'endpoint', 'online', 'x2') returning id`,
  );
  const today = new Date().toISOString().slice(0, 10);
  const body: MonitorBody = {
    name: '',
    description: '',
    monitor_group: null,
    new_monitor_group: 'Bench',
    monitor_runtime: `${today} 00:00`,
    timezone: 'UTC',
    repeat_job_period_number: 1,
    repeat_job_period_type: 'minutes',
    repeat_week_days: '',
    repeat_monthly_frequency: '',
    repeat_day_of_the_week: '',
    extra_sleep: 0,
    detection_timeout_seconds: 30,
    simulation_id: null,
    steps: [
      {
        name: 'Group 1', run_between: 'node', attack_node: nodes[0]?.id ?? null, attack_zone: null, target_node: nodes[1]?.id ?? null, target_zone: null,
        from_email_profile: null, to_email_profile: null, scan_interfaces: [], proxy_comm: false, use_ip_addresses: false, action_user_profile: null,
        interactive_desktop_session: false, require_interactive: false, actions: [newActionBody(action?.id ?? 0)],
      },
    ],
  };
  const t0 = performance.now();
  for (let i = 0; i < MONITORS; i++) await createMonitor(db, { ...body, name: `Bench monitor ${i}` }, null);
  console.log(`created ${MONITORS} monitors in ${Math.round(performance.now() - t0)} ms on ${db.kind}`);

  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  // All due within one minute: spread over 60 s starting 2 s from now.
  const [{ base } = { base: '' }] = await db.query<{ base: string }>(`select (now() + interval '2 seconds')::text as base`);
  await db.query(`update monitors set next_run_at = $1::timestamptz + (id % 60) * interval '1 second'`, [base]);
  // The first wave only: each monitor's run for the slot set above (later slots come a minute after).
  const wave = `from monitor_runs where scheduled_for = $1::timestamptz + (monitor_id % 60) * interval '1 second'`;
  const scheduler = new MonitorScheduler(db, { tickMs: TICK_MS });
  scheduler.start();
  const deadline = Date.now() + 180_000;
  for (;;) {
    const [{ n } = { n: 0 }] = await db.query<{ n: number }>(`select count(*)::int as n ${wave}`, [base]);
    if (n >= MONITORS || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await scheduler.stop();
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  const lags = (await db.query<{ ms: number }>(`select extract(epoch from (started_at - scheduled_for)) * 1000 as ms ${wave}`, [base])).map((r) => Number(r.ms));
  const sorted = [...lags].sort((a, b) => a - b);
  printTable(`Monitor scheduler: ${lags.length} of ${MONITORS} monitors due within one minute, tick ${TICK_MS} ms`, [['due -> job started', summarize(lags)]]);
  console.log(`p99 lag: ${percentile(sorted, 99).toFixed(1)} ms`);
  console.log(`RSS: ${(rssBefore / 1048576).toFixed(0)} MB before, ${(rssAfter / 1048576).toFixed(0)} MB after (growth ${((rssAfter - rssBefore) / 1048576).toFixed(1)} MB)`);
  await db.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
