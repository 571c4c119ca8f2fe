import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { extractReplayScript } from '../../server/engine/replay-script';
import { runJob, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { createPcapAction, fixture } from './pcap-helpers';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-engine-pcap-'));
let w: EngineWorld;

beforeAll(async () => {
  // The demo seed brings the action form's dimension trees (a PCAP Action is saved with the full form).
  w = await startEngineWorld({}, { config: { dataDir }, beforeActors: (server) => seedDemo(server.db, { jobs: 0 }) });
});
afterAll(async () => {
  await w?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const run = (actionId: number) => runJob(w, 'actions', actionId);

interface ReplayEvidence {
  conversations: { conversation: number; protocol: string; server_port: number; result: string; failed_segment?: { index: number; direction: string; expected: string; received: string } }[];
  bytes_sent: number;
  bytes_received: number;
}

describe('pcap actions replay the kept conversations between two actors', () => {
  it('the replay script holds each side of every conversation in captured order', async () => {
    const file = path.join(dataDir, 'two-ips-tcp.pcap');
    fs.writeFileSync(file, fixture('two-ips-tcp.pcap'));
    const script = await extractReplayScript(file, 7);
    expect(script.conversations.map((c) => [c.protocol, c.server_port, c.segments.map((s) => s.from)])).toEqual([
      ['tcp', 80, ['client', 'server']],
      ['tcp', 443, ['client']],
    ]);
    const request = Buffer.from(script.conversations[0]!.segments[0]!.data, 'base64').toString();
    expect(request).toMatch(/^GET .* HTTP\/1\.1\r\nHost: a\.example/);
    expect(Buffer.from(script.conversations[1]!.segments[0]!.data, 'base64')).toEqual(Buffer.alloc(200, 0x17));
  });

  it('a two-IP TCP capture uploaded as a PCAP Action runs: the job completes, the action ran and is not blocked', async () => {
    const action = await createPcapAction(w.server, w.operator, 'two-ips-tcp.pcap');
    const { job, actions } = await waitForJob(w.server.db, await run(action.id));
    expect(job.status).toBe('completed');
    expect(actions[0]?.status).toBe('ran');
    expect(actions[0]?.blocked_msg).toBeNull();
    expect(actions[0]?.blocked).toBe(false);
    const ev = actions[0]?.evidence.source as ReplayEvidence;
    expect(ev.conversations.map((c) => [c.server_port, c.result])).toEqual([
      [80, 'match'],
      [443, 'match'],
    ]);
    expect(ev.bytes_received).toBeGreaterThan(800);
  });

  it('a two-IP UDP capture replays every datagram of its five conversations', async () => {
    const action = await createPcapAction(w.server, w.operator, 'two-ips-udp.pcap');
    const { actions } = await waitForJob(w.server.db, await run(action.id));
    expect(actions[0]?.status).toBe('ran');
    expect(actions[0]?.blocked).toBe(false);
    const ev = actions[0]?.evidence.source as ReplayEvidence;
    expect(ev.conversations.map((c) => [c.protocol, c.server_port, c.result])).toEqual(Array.from({ length: 5 }, () => ['udp', 53, 'match']));
    expect(ev.bytes_received).toBe(ev.bytes_sent);
  });

  it("a target answer that differs from the capture is blocked, naming the conversation and segment", async () => {
    const action = await createPcapAction(w.server, w.operator, 'two-ips-tcp.pcap');
    w.dst.tamper = (type, data) => (type === 'pcap' ? Buffer.from(data.toString('latin1').replace('200 OK', '403 No'), 'latin1') : data);
    try {
      const { job, actions } = await waitForJob(w.server.db, await run(action.id));
      expect(job.status).toBe('completed');
      expect(actions[0]?.status).toBe('ran');
      expect(actions[0]?.blocked).toBe(true);
      expect(actions[0]?.blocked_msg).toBe('Conversation 1 (TCP port 80): segment 2 (server to client) differs from the capture (altered content)');
      const failed = (actions[0]?.evidence.source as ReplayEvidence).conversations[0]?.failed_segment;
      expect(failed).toMatchObject({ index: 2, direction: 'server to client' });
      expect(failed?.expected).toContain('200 OK');
      expect(failed?.received).toContain('403 No');
    } finally {
      w.dst.tamper = undefined;
    }
  });

  it('a pcap action whose processed capture is gone ends errored with the reason', async () => {
    const action = await createPcapAction(w.server, w.operator, 'two-ips-tcp.pcap');
    fs.rmSync(path.join(dataDir, 'pcap', 'processed', `${action.upload_id}.pcap`));
    const { actions } = await waitForJob(w.server.db, await run(action.id));
    expect(actions[0]?.status).toBe('errored');
    expect(actions[0]?.blocked_msg).toBe(`The processed capture of PCAP upload ${action.upload_id} is not stored on this director.`);
  });
});
