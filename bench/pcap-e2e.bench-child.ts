/**
 * One fresh director (its own process, PGlite in memory) and two uploads of FILE by curl on
 * loopback, timed from starting curl to status 100%: the first on a just-started director (cold),
 * the second warm. Prints one JSON line. Run by pcap.bench.ts:
 *   node --import tsx bench/pcap-e2e.bench-child.ts FILE DATA_DIR
 */
import { spawn } from 'node:child_process';

async function endToEnd(file: string, dataDir: string): Promise<{ uploadMs: number; doneMs: number; status: string }[]> {
  const { buildApp } = await import('../server/app');
  const { openPglite } = await import('../server/db/index');
  const { migrate } = await import('../server/db/migrate');
  const { ensureAdmin } = await import('../server/seed/users');
  const db = await openPglite(undefined);
  await migrate(db);
  await ensureAdmin(db, 'admin@example.com', 'bench password 123');
  const app = await buildApp({
    db,
    config: { port: 0, host: '127.0.0.1', dataDir, databaseUrl: undefined, seed: 'none', adminEmail: 'admin@example.com', adminPassword: undefined, sessionTimeoutMin: 30, sessionMaxHours: 12, staticDir: undefined },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  try {
    const signIn = await fetch(`http://127.0.0.1:${port}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'bench password 123' }) });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrf_token } = (await signIn.json()) as { csrf_token: string };
    // The client is curl in its own process (a real HTTP upload, not sharing the director's CPU time).
    const uploadOnce = async () => {
      const t0 = performance.now();
      const curl = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('curl', ['-sS', '-F', 'anonymized_ip=true', '-F', `file=@${file};filename=bench.pcap`, '-H', `cookie: ${cookie}`, '-H', `x-csrf-token: ${csrf_token}`, `http://127.0.0.1:${port}/manage_sims/upload/upload_pcap_file`]);
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
      if (curl.code !== 0) throw new Error(`curl failed: ${curl.out}`);
      const uploadId = (JSON.parse(curl.out) as { data: { upload_id: number } }).data.upload_id;
      const uploadMs = performance.now() - t0;
      for (;;) {
        const r = await fetch(`http://127.0.0.1:${port}/manage_sims/upload/check_process_status/${uploadId}`, { headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-background-task': 'true' } });
        const d = ((await r.json()) as { data: { percent_complete: number; status: string } }).data;
        if (d.percent_complete >= 100) return { uploadMs, doneMs: performance.now() - t0, status: d.status };
        // Polled every 5 ms (the browser polls every 2 s): the poll adds at most 5 ms to the figure.
        await new Promise((res) => setTimeout(res, 5));
      }
    };
    // Twice: the first upload runs on a cold JIT, the second on a warm one.
    const results = [await uploadOnce(), await uploadOnce()];
    return results;
  } finally {
    await app.close();
    await db.close();
  }
}

const [file, dataDir] = process.argv.slice(2);
if (!file || !dataDir) throw new Error('usage: pcap-e2e.bench-child.ts FILE DATA_DIR');
console.log(JSON.stringify(await endToEnd(file, dataDir)));
