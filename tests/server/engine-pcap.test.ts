import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractReplayScript } from '../../server/engine/replay-script';
import { runJob, waitForJob } from './engine-helpers';
import { alterHttpAnswer, createPcapAction, expectAlteredHttpAnswer, fixture, usePcapEngineWorld } from './pcap-helpers';
import { SharedFiles } from '../../server/storage/shared-files';

const { dataDir, world } = usePcapEngineWorld('vigil-engine-pcap-');

const run = (actionId: number) => runJob(world(), 'actions', actionId);

interface ReplayEvidence {
  conversations: { conversation: number; protocol: string; server_port: number; result: string }[];
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
    const action = await createPcapAction(world().server, world().operator, 'two-ips-tcp.pcap');
    const { job, actions } = await waitForJob(world().server.db, await run(action.id));
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
    const action = await createPcapAction(world().server, world().operator, 'two-ips-udp.pcap');
    const { actions } = await waitForJob(world().server.db, await run(action.id));
    expect(actions[0]?.status).toBe('ran');
    expect(actions[0]?.blocked).toBe(false);
    const ev = actions[0]?.evidence.source as ReplayEvidence;
    expect(ev.conversations.map((c) => [c.protocol, c.server_port, c.result])).toEqual(Array.from({ length: 5 }, () => ['udp', 53, 'match']));
    expect(ev.bytes_received).toBe(ev.bytes_sent);
  });

  it("a target answer that differs from the capture is blocked, naming the conversation and segment", async () => {
    const action = await createPcapAction(world().server, world().operator, 'two-ips-tcp.pcap');
    world().dst.tamper = alterHttpAnswer('pcap');
    try {
      const { job, actions } = await waitForJob(world().server.db, await run(action.id));
      expectAlteredHttpAnswer(job, actions[0]);
    } finally {
      world().dst.tamper = undefined;
    }
  });

  it('a pcap action whose processed capture is gone ends incompatible with the reason (this director cannot perform it)', async () => {
    const action = await createPcapAction(world().server, world().operator, 'two-ips-tcp.pcap');
    // Gone here and from the database's shared copy (SHARED_FILES=database, the default on PostgreSQL).
    await new SharedFiles(world().server.db, dataDir, true).remove(`pcap/processed/${action.upload_id}.pcap`);
    const { actions } = await waitForJob(world().server.db, await run(action.id));
    expect(actions[0]?.status).toBe('incompatible');
    expect(actions[0]?.blocked_msg).toBe(`The processed capture of PCAP upload ${action.upload_id} is not stored on this director.`);
  });
});
