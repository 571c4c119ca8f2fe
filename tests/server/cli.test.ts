import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { seedDemo } from '../../server/seed/demo';
import { reopenDemoJobs } from './job-fixtures';
import { EMAILS, PASSWORD, startTestServer, type TestServer } from './helpers';
import { readPdf } from '../../e2e/pdf-reader';
import { buildVigilCli } from '../../cli/build';

const run = promisify(execFile);
let t: TestServer;
let url: string;
let dir: string;
/** The runner bundled once (cli/build.ts): each run starts with `node` alone instead of tsx compiling cli/vigil.ts. */
let cli: string;
/** The report calls' queries as the director parsed them: a GET's query string, a CSV export's `props`, each query of POST /reports/panels.json. */
const reportQueries: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.db);
  await reopenDemoJobs(t.db);
  t.app.addHook('preHandler', async (req) => {
    if (!req.url.startsWith('/reports/')) return;
    if (req.method === 'GET') reportQueries.push(req.query as Record<string, unknown>);
    const body = req.body as { props?: Record<string, unknown>; queries?: { query?: Record<string, unknown> }[] } | undefined;
    if (req.method !== 'POST' || !body) return;
    if (Array.isArray(body.queries)) reportQueries.push(...body.queries.map((q) => q.query ?? {}));
    if (body.props) reportQueries.push(body.props);
  });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-cli-'));
  cli = path.join(dir, 'vigil.cjs');
  buildVigilCli(cli);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function vigil(script: string, email: string, extra: string[] = [], env: Record<string, string> = {}) {
  const file = path.join(dir, `s-${Math.random().toString(36).slice(2)}.vgl`);
  fs.writeFileSync(file, script);
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, 'run', file, '--director', url, ...extra], {
      env: { ...process.env, VIGIL_EMAIL: email, VIGIL_PASSWORD: PASSWORD, ...env },
      cwd: path.resolve(__dirname, '../..'),
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

describe('the terminal runner', () => {
  it('runs a script against the director, through the same commands and permissions, and prints the transcript', async () => {
    const out = await vigil(
      ['# add a user, then make them an approver', 'let u = users.add email=cli.user@example.com role=operator password="a long password"', 'users.setRole id=$u.id role=approver', 'script.echo text="done with ${u.email}"'].join('\n'),
      EMAILS.admin,
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^OK +line +2 {2}let u = users\.add/m);
    expect(out.stdout).toMatch(/^OK +line +4 .* -> done with cli\.user@example\.com$/m);
    expect(out.stdout.trim().split('\n').at(-1)).toBe('Script finished: 3 ok, 0 failed, 0 skipped');
    const [row] = await t.db.query<{ role: string }>('select role from users where email = $1', ['cli.user@example.com']);
    expect(row?.role).toBe('approver');
  });

  it('fails cleanly, exit code 1, on a command the user lacks permission for', async () => {
    const out = await vigil('script.echo text=first\nusers.add email=nope@example.com role=viewer password="a long password"\nscript.echo text=never', EMAILS.viewer);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^FAILED +line +2 .* -> "Add User" is not available to you here$/m);
    expect(out.stdout).toMatch(/^SKIPPED +line +3 /m);
    expect(out.stdout.trim().split('\n').at(-1)).toBe('Script failed: 1 ok, 1 failed, 1 skipped');
    expect(await t.db.query('select 1 from users where email = $1', ['nope@example.com'])).toEqual([]);
  });

  it('refuses commands that need the workbench, with a clear message', async () => {
    const out = await vigil('pane.open.jobs', EMAILS.operator);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain('pane.open.jobs only works in the workbench (it opens, focuses or moves panes); a terminal runner cannot do it');
  });

  // Three terminal-runner processes: 30 s was exceeded under a load average of 35.
  it('reports a bad sign-in or a missing file with exit code 2 and a message', { timeout: 90_000 }, async () => {
    const bad = await run(process.execPath, [cli, 'run', path.join(dir, 'missing.vgl'), '--director', url], {
      env: { ...process.env, VIGIL_EMAIL: EMAILS.admin, VIGIL_PASSWORD: PASSWORD },
      cwd: path.resolve(__dirname, '../..'),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Cannot read the script file');
    const wrong = await vigil('script.echo text=x', EMAILS.admin).then(() => vigil('script.echo text=x', 'nobody@example.com'));
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Sign-in failed: Invalid email or password.');
  });

  it('a dry run checks every step without running any', async () => {
    const out = await vigil('users.add email=dry@example.com role=viewer password="a long password"\nusers.setRole id=abc role=viewer', EMAILS.admin, ['--dry-run', '--continue']);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^OK +line +1 /m);
    expect(out.stdout).toMatch(/^FAILED +line +2 .* -> id: /m);
    expect(await t.db.query('select 1 from users where email = $1', ['dry@example.com'])).toEqual([]);
  });

  it('waits for a finished job, exports it, every job a filter matches and every completed job (status:completed) to CSV files in --out, and times out on a job still running', async () => {
    const [done] = await t.db.query<{ id: number; name: string }>("select id, name from jobs where status = 'completed' order by id limit 1");
    const [busy] = await t.db.query<{ id: number }>("select id from jobs where status in ('running', 'pending', 'waiting', 'preparing', 'sleeping') order by id limit 1");
    expect(done && busy).toBeTruthy();
    const word = done!.name.split(/\s+/).find((w) => w.length > 3) ?? done!.name;
    const [{ n: matching } = { n: 0 }] = await t.db.query<{ n: number }>('select count(*)::int as n from jobs where name ilike $1', [`%${word}%`]);
    const outDir = path.join(dir, 'exports');
    const out = await vigil(
      [
        `let job = jobs.wait id=${done!.id} timeout_s=5`,
        'jobs.export job_ids=$job.id filename=one',
        `jobs.export filter="${word}" filename=matches`,
        'jobs.export filter="status:completed" format=csv filename=completed',
        `jobs.wait id=${busy!.id} timeout_s=1`,
      ].join('\n'),
      EMAILS.operator,
      ['--out', outDir],
    );
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(new RegExp(`^OK +line +1 .* -> \\{"id":${done!.id},"name":.*"status":"completed"`, 'm'));
    expect(out.stdout).toMatch(/^OK +line +2 .* -> \{"filename":"one\.csv","rows":1,/m);
    expect(out.stdout).toMatch(new RegExp(`^FAILED +line +5 .* -> Job ${busy!.id} is still \\w+ \\(\\d+%\\) after 1 s\\.$`, 'm'));
    expect(out.stdout).toContain(`Saved ${path.join(outDir, 'one.csv')}`);
    const one = fs.readFileSync(path.join(outDir, 'one.csv'), 'utf8').trim().split('\r\n');
    expect(one).toHaveLength(2);
    expect(one[1]).toContain(done!.name);
    const matches = fs.readFileSync(path.join(outDir, 'matches.csv'), 'utf8').trim().split('\r\n');
    expect(matches.length - 1).toBe(matching);
    const [{ n: completed } = { n: 0 }] = await t.db.query<{ n: number }>("select count(*)::int as n from jobs where status = 'completed'");
    expect(completed).toBeGreaterThan(0);
    expect(out.stdout).toMatch(new RegExp(`^OK +line +4 .* -> \\{"filename":"completed\\.csv","rows":${completed},`, 'm'));
    const completedRows = fs.readFileSync(path.join(outDir, 'completed.csv'), 'utf8').trim().split('\r\n');
    expect(completedRows.length - 1).toBe(completed);
  });

  it('MON-180 MON-143 exports a dashboard as a Letter PDF and its data as CSV into --out (reports.exportPdf, reports.exportCsv)', async () => {
    const outDir = path.join(dir, 'reports');
    const out = await vigil(['reports.exportPdf name="ATT&CK coverage" filename=coverage', 'reports.exportCsv name="ATT&CK coverage" separator=semicolon filename=coverage'].join('\n'), EMAILS.admin, ['--out', outDir]);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^OK +line +1 .* -> \{"filename":"coverage\.pdf","pages":\d+,/m);
    expect(out.stdout).toContain(`Saved ${path.join(outDir, 'coverage.pdf')}`);
    const pdf = readPdf(new Uint8Array(fs.readFileSync(path.join(outDir, 'coverage.pdf'))));
    expect(pdf.pages.length).toBeGreaterThanOrEqual(1);
    for (const page of pdf.pages) {
      expect([page.width, page.height]).toEqual([612, 792]);
      expect(page.texts.some((x) => x.startsWith('Generated on '))).toBe(true);
    }
    expect(pdf.pages[0]!.texts).toContain('ATT&CK coverage');
    const csv = fs.readFileSync(path.join(outDir, 'coverage.csv'), 'utf8').replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]).toBe('Tactic Radar');
    expect(csv[1]).toMatch(/^Tactic;/);
  });

  it('MON-051 reports.setTimeRange sets the last N units and the days of the week, which the PDF names; days outside Su..S are refused', async () => {
    const outDir = path.join(dir, 'drift');
    const out = await vigil(['reports.setTimeRange name="Monitor drift" count=14 unit=day days=F,M', 'reports.exportPdf name="Monitor drift" filename=drift'].join('\n'), EMAILS.admin, ['--out', outDir]);
    expect(out.stderr).toBe('');
    expect(out.code, out.stdout).toBe(0);
    const [row] = await t.db.query<{ time_range: unknown }>(`select time_range from dashboards where name = 'Monitor drift'`);
    expect(row?.time_range).toEqual({ rangeType: 'rel', relBackCount: 14, relUnit: 'day', start: null, end: null, repeat_week_days: 'M,F' });
    const pdf = readPdf(new Uint8Array(fs.readFileSync(path.join(outDir, 'drift.pdf'))));
    expect(pdf.pages[0]!.texts.some((x) => x.startsWith('Last 14 days on M, F · '))).toBe(true);
    const bad = await vigil('reports.setTimeRange name="Monitor drift" count=7 unit=day days=Funday', EMAILS.admin);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('Weekdays must be among Su, M, T, W, Th, F, S');
  });

  it("MON-051 a terminal run asks for a range's days in the user's profile time zone, not the terminal's", async () => {
    const [before] = await t.db.query<{ time_zone: string }>('select time_zone from users where email = $1', [EMAILS.admin]);
    await t.db.query(`update users set time_zone = 'Asia/Tokyo' where email = $1`, [EMAILS.admin]);
    try {
      reportQueries.length = 0;
      const script = ['reports.setTimeRange name="Monitor drift" count=14 unit=day days=M,F', 'reports.exportCsv name="Monitor drift" filename=drift-days'].join('\n');
      const out = await vigil(script, EMAILS.admin, ['--out', path.join(dir, 'days')], { TZ: 'America/New_York' });
      expect(out.code, out.stdout).toBe(0);
      const asked = reportQueries.filter((q) => 'week_days' in q);
      expect(asked.length).toBeGreaterThan(0);
      for (const q of asked) expect(q).toMatchObject({ week_days: expect.stringMatching(/M/), tz: 'Asia/Tokyo' });
    } finally {
      await t.db.query('update users set time_zone = $1 where email = $2', [before?.time_zone ?? 'UTC', EMAILS.admin]);
    }
  });

  it("reports.draftUntested answers the draft of the untested ATT&CK techniques' Actions in a terminal run, and saves it as a simulation with save=true", async () => {
    // A range with no job at all: every technique that enabled Actions are tagged with is untested.
    const range = 'start=2001-01-01T00:00:00Z end=2001-02-01T00:00:00Z';
    const out = await vigil([`reports.draftUntested ${range}`, `reports.draftUntested ${range} sim_type=eval save=true`].join('\n'), EMAILS.admin);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const tagged = await t.db.query<{ code: string; vid: string }>(
      `select distinct t.code, ac.vid from tags t join action_tags at on at.tag_id = t.id join actions ac on ac.id = at.action_id and not ac.disabled and not ac.decommissioned
       where t.class_name = 'mitre_attack' and t.code like 'T%' and t.code not like 'TA%' order by 1`,
    );
    const codes = [...new Set(tagged.map((r) => r.code))];
    const vids = new Set(tagged.map((r) => r.vid));
    expect(codes.length).toBeGreaterThan(0);
    expect(out.stdout).toMatch(new RegExp(`^OK +line +1 .* -> \\{"techniques":\\["${codes[0]}"`, 'm'));
    const [sim] = await t.db.query<{ id: number; vid: string; name: string; simulation_type: string; description: string }>(
      `select id, vid, name, simulation_type, description from simulations where name like 'Untested ATT&CK techniques (%' order by id desc limit 1`,
    );
    expect(sim).toMatchObject({ name: `Untested ATT&CK techniques (${codes.length})`, simulation_type: 'eval' });
    expect(sim!.description).toContain('2001-01-01T00:00:00.000Z to 2001-02-01T00:00:00.000Z');
    expect(out.stdout).toMatch(new RegExp(`^OK +line +2 .* -> \\{"simulation":\\{"id":${sim!.id},"vid":"${sim!.vid}"\\},"techniques":`, 'm'));
    const steps = await t.db.query<{ vid: string }>(
      `select a.vid from simulation_steps s join simulation_step_actions sa on sa.step_id = s.id join actions a on a.id = sa.action_id where s.simulation_id = $1 order by s.position`,
      [sim!.id],
    );
    expect(new Set(steps.map((r) => r.vid))).toEqual(vids);
    expect(steps).toHaveLength(vids.size);
  });
});

/** Starts the runner on a script file; `started` resolves once it has signed in and begun the script. */
function startVigil(file: string, email: string) {
  const child = spawn(process.execPath, [cli, 'run', file, '--director', url], {
    env: { ...process.env, VIGIL_EMAIL: email, VIGIL_PASSWORD: PASSWORD },
    cwd: path.resolve(__dirname, '../..'),
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  const began = new Promise<void>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes(`Running ${file}`)) resolve();
    }),
  );
  return { child, exited, started: Promise.race([began, exited.then(() => undefined)]), output: () => ({ stdout, stderr }) };
}

describe('stopping a terminal run', () => {
  it('Ctrl+C interrupts a waiting step: the transcript shows it as stopped, the rest skipped, exit code 1', async () => {
    const file = path.join(dir, 'interrupted.vgl');
    fs.writeFileSync(file, ['script.wait ms=3600000', 'script.echo text=never'].join('\n'));
    const run = startVigil(file, EMAILS.viewer);
    await run.started;
    expect(run.output().stdout).toContain('Running');
    run.child.kill('SIGINT');
    const { code, stdout, stderr } = await run.exited;
    expect(stderr).toBe('Stopping the script…\n');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^STOPPED +line +1 {2}script\.wait ms=3600000 {2}\(\d+ ms\) {2}-> Stopped before this step finished\.$/m);
    expect(stdout).toMatch(/^SKIPPED +line +2 /m);
    expect(stdout.trim().split('\n').at(-1)).toBe('Script stopped: 0 ok, 0 failed, 1 skipped, 1 stopped');
  });
});

describe('the director enforces permissions on a terminal run', () => {
  it("refuses a step the user's role no longer allows, though the runner's own check passed: exit 1, the director's message in the transcript", async () => {
    const email = 'demoted.operator@example.com';
    await t.db.query("insert into users (email, first_name, last_name, role, password_hash) values ($1, 'Demoted', 'Operator', 'operator', $2)", [email, await hashPassword(PASSWORD)]);
    const busy = await t.db.query<{ id: number; status: string }>(
      "select id, status from jobs where status in ('running', 'pending', 'waiting', 'preparing', 'sleeping') order by id desc limit 2",
    );
    expect(busy).toHaveLength(2);
    const [gate, victim] = busy as [{ id: number; status: string }, { id: number; status: string }];
    const file = path.join(dir, 'demoted.vgl');
    // The runner read the user's permissions (operator: may cancel) when it signed in. Step 1 waits
    // until the test has made the user a viewer; step 2 then passes the runner's check, and the
    // director refuses it.
    fs.writeFileSync(file, [`jobs.wait id=${gate.id} timeout_s=120`, `jobs.cancel id=${victim.id}`, 'script.echo text=never'].join('\n'));
    const run = startVigil(file, email);
    await run.started;
    expect(run.output().stdout).toContain(`as ${email}`);
    await t.db.query("update users set role = 'viewer' where email = $1", [email]);
    await t.db.query("update jobs set status = 'completed', progress = 100 where id = $1", [gate.id]);
    const { code, stdout, stderr } = await run.exited;
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`^OK +line +1 {2}jobs\\.wait id=${gate.id} .*"status":"completed"`, 'm'));
    expect(stdout).toMatch(new RegExp(`^FAILED +line +2 {2}jobs\\.cancel id=${victim.id} {2}\\(\\d+ ms\\) {2}-> Your role \\(viewer\\) does not allow this: jobs\\.cancel\\.$`, 'm'));
    expect(stdout).toMatch(/^SKIPPED +line +3 /m);
    expect(stdout.trim().split('\n').at(-1)).toBe('Script failed: 1 ok, 1 failed, 1 skipped');
    const [after] = await t.db.query<{ status: string }>('select status from jobs where id = $1', [victim.id]);
    expect(after?.status).toBe(victim.status);
  });
});
