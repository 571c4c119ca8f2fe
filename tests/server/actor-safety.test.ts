/**
 * The actor performs only work signed for it by its director: a stand-in director hands the real
 * ActorAgent forged, misaddressed, expired and off-target work, and a listener on the peer
 * addresses proves nothing was performed. Its warm-up (actor/warm-up.ts) talks to itself alone.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorAgent } from '../../actor/agent';
import { warmUp } from '../../actor/warm-up';
import { ACTOR_API, type SignedWork, type WorkPayload } from '@/api/contracts/engine';
import { DST_ADDRESS, SRC_ADDRESS, loopback } from './loopback';

const NODE_ID = 7;
const SELF = SRC_ADDRESS;
const PEER = DST_ADDRESS;
const ELSEWHERE = loopback(5);
const PORT = 47501;

const director = crypto.generateKeyPairSync('ed25519');
const forger = crypto.generateKeyPairSync('ed25519');

interface Result {
  id: number;
  outcome: string;
  message: string | null;
  /** How it reached the stand-in director: carried by a poll, or by /work/{id}/result. */
  via: 'poll' | '/result';
}

let server: http.Server;
let url = '';
let pending: SignedWork[] = [];
const results: Result[] = [];
/** True: the stand-in answers 400 to a poll carrying results, as a director from before them would. */
let olderDirector = false;
/** What the actor logged. */
const logged: string[] = [];
/** The work each poll said the actor held, in order. */
const polled: number[][] = [];
const listeners: net.Server[] = [];
const connections: Record<string, number> = { [PEER]: 0, [ELSEWHERE]: 0 };
let agent: ActorAgent;

function json(res: http.ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A stand-in director: registers the actor, hands out `pending` at the next poll, keeps the results (carried by polls or sent by /result). */
function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const path = (req.url ?? '').slice(ACTOR_API.length);
    if (path === '/register') return json(res, { node_id: NODE_ID, token: 'vat_safety-test-token', signing_key: director.publicKey.export({ type: 'spki', format: 'pem' }), heartbeat_ms: 60_000 });
    if (path === '/heartbeat') return json(res, { ok: true });
    if (path === '/poll') {
      // A source's result rides on its next poll (or goes by /result after the poll's wait).
      const poll = JSON.parse(body) as { holding: number[]; results?: { work_id: number; outcome: string; message: string | null }[] };
      polled.push(poll.holding);
      // An older director: a poll carrying reports is malformed to it.
      if (olderDirector && poll.results?.length) return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'results is not allowed' }));
      for (const r of poll.results ?? []) results.push({ id: r.work_id, outcome: r.outcome, message: r.message, via: 'poll' });
      const work = pending;
      pending = [];
      return setTimeout(() => json(res, { work, abort: [] }), work.length ? 0 : 100);
    }
    const m = /^\/work\/(\d+)\/result$/.exec(path);
    if (m) {
      const r = JSON.parse(body) as { outcome: string; message: string | null };
      results.push({ id: Number(m[1]), outcome: r.outcome, message: r.message, via: '/result' });
      return json(res, { ok: true });
    }
    res.writeHead(404).end('{}');
  });
}

function payload(id: number, over: Partial<WorkPayload> = {}): WorkPayload {
  return {
    work_id: id,
    node_id: NODE_ID,
    job_id: 1,
    job_action_id: id,
    role: 'source',
    action_type: 'port_scan',
    name: 'scan',
    details: { ports_list: String(PORT), sleep_timer: 0, randomize_scan: false },
    timeout_ms: 5000,
    local_address: SELF,
    peer_address: PEER,
    peer_addresses: [PEER],
    issued_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 60_000).toISOString(),
    ...over,
  };
}

function signed(p: WorkPayload, key = director.privateKey): SignedWork {
  const text = JSON.stringify(p);
  return { id: p.work_id, payload: text, signature: crypto.sign(null, Buffer.from(text), key).toString('base64') };
}

async function resultOf(id: number): Promise<Result> {
  for (let i = 0; i < 400; i++) {
    const r = results.find((x) => x.id === id);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error(`no result for work ${id}`);
}

beforeAll(async () => {
  for (const address of [PEER, ELSEWHERE]) {
    const l = net.createServer((s) => {
      connections[address] = (connections[address] ?? 0) + 1;
      s.destroy();
    });
    await new Promise<void>((resolve) => l.listen(PORT, address, resolve));
    listeners.push(l);
  }
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  agent = new ActorAgent({ director: url, bulkToken: 'vbt_safety-test', name: 'safe', address: SELF, log: (line) => logged.push(line), pollWaitMs: 200 });
  await agent.start();
});

afterAll(async () => {
  await agent?.stop();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  for (const l of listeners) await new Promise((r) => l.close(r));
});

describe('the actor refuses work that is not signed for it', () => {
  it('forged, misaddressed, expired and off-target work is refused with a message and nothing is performed', async () => {
    const bad = [
      signed(payload(101), forger.privateKey), // bad Ed25519 signature
      { ...signed(payload(102)), payload: JSON.stringify({ ...payload(102), peer_address: ELSEWHERE, peer_addresses: [ELSEWHERE] }) }, // altered after signing
      signed(payload(103, { node_id: NODE_ID + 1 })), // addressed to another actor
      signed(payload(104, { expires_at: new Date(Date.now() - 1000).toISOString() })), // expired
      signed(payload(105, { local_address: '127.0.0.9' })), // not this actor's address
      signed(payload(106, { peer_address: ELSEWHERE })), // an address the peer did not report
      signed(payload(107, { peer_address: SELF, peer_addresses: [SELF] })), // itself as the peer
    ];
    pending = bad;
    for (const w of bad) {
      const r = await resultOf(w.id);
      expect([r.id, r.outcome, r.message]).toEqual([w.id, 'errored', 'The actor refused the work: its signature, addressee, expiry or addresses did not check out.']);
    }
    expect(agent.holding).toEqual([]);
    expect(connections).toEqual({ [PEER]: 0, [ELSEWHERE]: 0 });

    // The same work, signed for it, is performed: the scan reaches the peer.
    pending = [signed(payload(108))];
    const ok = await resultOf(108);
    expect(ok.outcome).toBe('ran');
    // Its result rode on the actor's next poll (one call less than /result); refused work is reported at once by /result.
    expect(ok.via).toBe('poll');
    expect(new Set(results.filter((r) => r.id < 108).map((r) => r.via))).toEqual(new Set(['/result']));
    expect(connections).toEqual({ [PEER]: 1, [ELSEWHERE]: 0 });
  });
});

describe('how the actor reports a result', () => {
  it('work that outlasts the 2 s its next poll waits for it is reported by /result once done; the poll meanwhile still holds it', async () => {
    const { peer_address: _p, peer_addresses: _a, ...alone } = payload(201, { action_type: 'sleep', details: { sleep_ms: 2600 } });
    polled.length = 0;
    pending = [signed(alone)];
    const r = await resultOf(201);
    expect([r.outcome, r.via]).toEqual(['ran', '/result']);
    // A poll went out while it slept (after its 2 s wait), holding the work: a cancel would have reached it.
    expect(polled.some((holding) => holding.includes(201))).toBe(true);
    expect(agent.holding).toEqual([]);
  });

  // Last: the actor keeps to separate calls from then on.
  it('a director that answers a poll carrying a result 400 gets it by /result, and every later report too', async () => {
    olderDirector = true;
    const { peer_address: _p, peer_addresses: _a, ...alone } = payload(301, { action_type: 'sleep', details: { sleep_ms: 10 } });
    pending = [signed(alone)];
    expect((await resultOf(301)).via).toBe('/result');
    expect(logged).toContain('[actor safe] the director takes no reports in polls; sending them by /ready, /evidence and /result');
    const { peer_address: _q, peer_addresses: _b, ...next } = payload(302, { action_type: 'sleep', details: { sleep_ms: 10 } });
    pending = [signed(next)];
    expect((await resultOf(302)).via).toBe('/result');
  });
});

describe('the warm-up before the first poll', () => {
  it('performs a socket exchange and a port scan of one open and one closed port with the actor itself, on ports the system picks, each a ran action', async () => {
    const [socket, scan] = await warmUp(SELF, { allowHostCli: false });
    expect(socket).toMatchObject({ outcome: 'ran', blocked: false });
    const evidence = socket!.evidence as { peer: string; port: number; steps: { received: string; result: string }[] };
    expect(evidence.peer).toBe(SELF);
    expect(evidence.port).toBeGreaterThan(0);
    expect(evidence.steps).toEqual([expect.objectContaining({ received: 'up', result: 'match' })]);
    // The scan found its open port open and its closed one refused (so it reads as blocked), both on its own address.
    expect(scan).toMatchObject({ outcome: 'ran', blocked: true });
    const ports = scan!.evidence as { peer: string; ports: { port: number; expected: string; result: string }[] };
    expect(ports.peer).toBe(SELF);
    expect(ports.ports.map((p) => [p.expected, p.result])).toEqual([
      ['open', 'open'],
      ['closed', 'refused'],
    ]);
    // Its servers are closed once it is done: the ports refuse.
    for (const port of [evidence.port, ports.ports[0]!.port]) {
      await expect(new Promise((resolve, reject) => net.connect(port, SELF).once('connect', resolve).once('error', reject))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    }
  });
});
