/**
 * The demo seed is runnable: every seeded sequence and evaluation, and every seeded action that needs
 * stored bytes (packet captures, library files), runs between two local actors as `npm start` starts
 * them (no --allow-host-cli), and nothing ends 'incompatible' because bytes are missing.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import type { PreviewAnswer } from '@/api/contracts/library';
import type { PcapPacketsAnswer, ShowConversationsAnswer } from '@/api/contracts/pcap';
import { runJob, startEngineWorld, waitForJob, type EngineWorld, type JobActionRow } from './engine-helpers';
import { SRC_ADDRESS } from './loopback';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-seed-runs-'));
let w: EngineWorld;

beforeAll(async () => {
  // The director's own 20 s before an actor counts as offline (the tests' 3 s is for the tests about
  // going offline): every seeded simulation starts at once here, and a busy machine can hold a
  // heartbeat back for seconds, which must not fail a run that is not about presence.
  w = await startEngineWorld({}, { config: { dataDir }, beforeActors: (server) => seedDemo(server.db, { jobs: 0, dataDir }), engine: { offlineAfterMs: 20_000 } });
}, 120_000);
afterAll(async () => {
  await w?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The reasons the engine gives when a capture or a library file has no bytes on this director. */
const MISSING_BYTES = [/has no content in the file library/, /is not stored on this director/, /names no PCAP upload/, /PCAP upload \d+ of this action no longer exists/, /is no longer in the file library/];

/** Documented reasons a seeded action is incompatible between the two local actors. */
const DOCUMENTED = [
  // host_cli runs only on an actor started with --allow-host-cli; cloud actions need a cloud actor.
  /^Actor src cannot perform (host_cli|cloud) actions\.$/,
  // Sequence assignment rule: a step holding a DNS, host CLI or cloud action runs on a single actor.
  /^\w+ needs a destination actor, and this step has none\.$/,
  /^file_transfer through an icmp tunnel is not supported by this actor: Node\.js cannot open raw ICMP sockets without native code\.$/,
  // A DNS server outside the two actors (the seeded Corporate DNS) is never queried.
  /^The DNS server .+ is not an address of the source or destination actor, and actors query no address outside the two\.$/,
  new RegExp(`^\\S+ does not resolve to this actor's address \\(${SRC_ADDRESS.replaceAll('.', '\\.')}\\); captive URLs are fetched only from the actor itself, never from the internet\\.$`),
];

const JOB_TIMEOUT_MS = 300_000;

function expectNoMissingBytes(label: string, actions: JobActionRow[]): void {
  for (const a of actions) {
    if (a.status !== 'incompatible') continue;
    const reason = a.blocked_msg ?? '';
    const where = `${label}: ${a.action_type} ${a.name}: ${reason}`;
    expect(MISSING_BYTES.some((m) => m.test(reason)), where).toBe(false);
    expect(DOCUMENTED.some((m) => m.test(reason)), where).toBe(true);
  }
}

describe('the demo seed runs between two local actors', () => {
  it('every seeded sequence and evaluation completes; no action is incompatible for missing capture or file bytes, only for documented reasons', async () => {
    const sims = await w.server.db.query<{ id: number; name: string; simulation_type: string }>('select id, name, simulation_type from simulations order by id');
    expect(sims.length).toBeGreaterThan(0);
    const jobs = await Promise.all(sims.map((s) => runJob(w, s.simulation_type === 'eval' ? 'evaluations' : 'sequences', s.id)));
    const ran = new Set<string>();
    for (const [i, id] of jobs.entries()) {
      const { job, actions } = await waitForJob(w.server.db, id, ['completed', 'errored', 'cancelled'], JOB_TIMEOUT_MS);
      expect(job.status, `${sims[i]!.name}: ${job.status_reason ?? ''}`).toBe('completed');
      expectNoMissingBytes(sims[i]!.name, actions);
      for (const a of actions) if (a.status === 'ran') ran.add(a.action_type);
    }
    // The types that need stored bytes really ran inside the seeded simulations.
    expect([...ran]).toEqual(expect.arrayContaining(['pcap', 'captive_ioc_pcap', 'email', 'file_transfer']));
  }, JOB_TIMEOUT_MS + 60_000);

  it('every seeded pcap and captive_ioc_pcap action replays its capture byte for byte, every conversation matched', async () => {
    const actions = await w.server.db.query<{ id: number; name: string }>(`select id, name from actions where action_type in ('pcap', 'captive_ioc_pcap') order by id`);
    expect(actions.length).toBe(8);
    for (const a of actions) {
      const { job, actions: results } = await waitForJob(w.server.db, await runJob(w, 'actions', a.id), ['completed', 'errored', 'cancelled'], JOB_TIMEOUT_MS);
      expect(job.status, a.name).toBe('completed');
      expect(results[0], a.name).toMatchObject({ status: 'ran', blocked: false });
    }
  }, JOB_TIMEOUT_MS);

  it('every seeded action with library files runs with the files\' bytes, or is incompatible for a documented reason', async () => {
    const actions = await w.server.db.query<{ id: number; name: string }>(
      `select id, name from actions a where action_type in ('email', 'file_transfer')
         and (exists (select 1 from action_files f where f.action_id = a.id) or details ? 'file_transfer_library_id') order by id`,
    );
    expect(actions.length).toBeGreaterThan(0);
    let ran = 0;
    for (const a of actions) {
      const { job, actions: results } = await waitForJob(w.server.db, await runJob(w, 'actions', a.id), ['completed', 'errored', 'cancelled'], JOB_TIMEOUT_MS);
      expect(job.status, a.name).toBe('completed');
      expectNoMissingBytes(a.name, results);
      if (results[0]?.status !== 'ran') continue;
      // Nothing alters the files on loopback: the transfer (hash compared) and the delivery succeed.
      expect(results[0], a.name).toMatchObject({ blocked: false });
      ran++;
    }
    expect(ran).toBeGreaterThan(0);
  }, JOB_TIMEOUT_MS);
});

describe('seeded captures and files are stored as uploads are', () => {
  it('ACT-047 ACT-053 a seeded PCAP Action has its upload record, conversations between the recorded addresses, a stored capture and HTTP traffic from its conversations', async () => {
    const viewer = await w.server.signIn('viewer');
    const [a] = await w.server.db.query<{ id: number; upload: number }>(`select id, (details->>'upload')::int as upload from actions where details->>'file' = 'icedid_gzip_loader.pcap'`);
    const shown = (await w.server.call('GET', `/manage_sims/upload/show_conversations/${a!.upload}.json?details=true`, { as: viewer })).json<ShowConversationsAnswer>().data;
    expect(shown.upload).toMatchObject({ orig_filename: 'icedid_gzip_loader.pcap', valid_upload: true, has_two_ips: true, contains_udp: false, action_id: a!.id, percent_complete: 100 });
    expect(shown.conversations).toHaveLength(1);
    expect(shown.conversations[0]).toMatchObject({ protocol: 'tcp', service: 'http', dest_port: 80, info: 'HTTP GET / HTTP/1.1 (Host: 198.51.100.62)' });
    const [orig] = await w.server.db.query<{ orig_source_address: string; orig_dest_address: string }>('select orig_source_address, orig_dest_address from pcap_conversations where upload_id = $1', [a!.upload]);
    expect(orig).toEqual({ orig_source_address: '10.10.1.106', orig_dest_address: '198.51.100.62' });
    const p = (await w.server.call('GET', `/library/actions.json?id=${a!.id}`, { as: viewer })).json<PreviewAnswer>().data.preview_props;
    if (p.action_type !== 'pcap' && p.action_type !== 'captive_ioc_pcap') throw new Error(`expected a replay Action, got ${p.action_type}`);
    expect(p.detail).toMatchObject({ has_hex: true, has_http_traffic: true });
    // The Packet View reads the processed capture: anonymized addresses, the HTTP request in its summary.
    const view = (await w.server.call('GET', `/manage_sims/pcaps/${a!.upload}/packets.json`, { as: viewer })).json<PcapPacketsAnswer>().data;
    expect(view).toMatchObject({ source: 'processed', total: 10 });
    expect(view.packets.map((x) => x.summary)).toContainEqual(expect.stringContaining('HTTP GET / HTTP/1.1 (Host: 198.51.100.62)'));
    expect(view.packets[0]).toMatchObject({ source: '10.0.0.1', destination: '10.0.0.2', protocol: 'TCP' });
  });

  it('every seeded library file is stored as an upload is (DATA_DIR/file-library/<sha256>, nothing in the row), with the size and hashes listed', async () => {
    const files = await w.server.db.query<{ orig_file_name: string; size: number; sha256sum: string; sha1sum: string; md5sum: string; content_file: string | null; in_row: boolean }>(
      'select orig_file_name, size, sha256sum, sha1sum, md5sum, content_file, content is not null as in_row from file_library order by id',
    );
    expect(files.length).toBe(25 + 8);
    for (const f of files) {
      expect({ content_file: f.content_file, in_row: f.in_row }, f.orig_file_name).toEqual({ content_file: f.sha256sum, in_row: false });
      const b = fs.readFileSync(path.join(dataDir, 'file-library', f.content_file!));
      const hash = (algo: string) => crypto.createHash(algo).update(b).digest('hex');
      expect({ size: f.size, sha256: f.sha256sum, sha1: f.sha1sum, md5: f.md5sum }, f.orig_file_name).toEqual({ size: b.length, sha256: hash('sha256'), sha1: hash('sha1'), md5: hash('md5') });
      expect(b.toString('latin1'), f.orig_file_name).not.toContain('EICAR-STANDARD-ANTIVIRUS-TEST-FILE');
    }
  });
});
