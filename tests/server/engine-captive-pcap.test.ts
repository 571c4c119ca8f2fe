import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { captivePcapSource } from '../../actor/types/captive-pcap';
import type { WorkPayload } from '@/api/contracts/engine';
import type { ReplayScript } from '@/api/contracts/replay';
import { runJob, waitForJob } from './engine-helpers';
import { alterHttpAnswer, createPcapAction, expectAlteredHttpAnswer, usePcapEngineWorld } from './pcap-helpers';
import { SRC_ADDRESS } from './loopback';
import { SharedFiles } from '../../server/storage/shared-files';

const { dataDir, world } = usePcapEngineWorld('vigil-engine-captive-pcap-');

interface CaptiveEvidence {
  peer: string;
  conversations: { conversation: number; protocol: string; server_port: number; connected_port: number; result: string }[];
  bytes_sent: number;
  bytes_received: number;
  captive_server: { served: Record<string, number>; conversations: { conversation: number; from: string; result: string }[] };
}

/** Runs a Captive IOC PCAP Action made from a fixture; the finished job, its action and its step's actors. */
async function runCaptive(fixtureName: string) {
  const action = await createPcapAction(world().server, world().operator, fixtureName, 'captive_ioc_pcap');
  const jobId = await runJob(world(), 'actions', action.id);
  const { job, actions } = await waitForJob(world().server.db, jobId);
  const [step] = await world().server.db.query<{ source_node_id: number | null; destination_node_id: number | null }>('select source_node_id, destination_node_id from job_steps where job_id = $1', [jobId]);
  return { job, action: actions[0]!, step: step!, evidence: actions[0]?.evidence.source as CaptiveEvidence };
}

describe('captive_ioc_pcap replays the capture on a single actor against itself', () => {
  it('a two-IP TCP capture runs on one actor: it serves the server side on its own address, plays the client side, ran and not blocked', async () => {
    const { job, action, step, evidence } = await runCaptive('two-ips-tcp.pcap');
    expect(job.status).toBe('completed');
    expect(action.action_type).toBe('captive_ioc_pcap');
    expect(action.status, action.blocked_msg ?? '').toBe('ran');
    expect(action.blocked).toBe(false);
    expect(action.blocked_msg).toBeNull();
    expect(step).toEqual({ source_node_id: world().src.nodeId, destination_node_id: null });
    expect(evidence.peer).toBe(SRC_ADDRESS);
    expect(evidence.conversations.map((c) => [c.protocol, c.server_port, c.result])).toEqual([
      ['tcp', 80, 'match'],
      ['tcp', 443, 'match'],
    ]);
    // The client connected to the ports the actor's own captive server was listening on.
    expect(evidence.conversations.map((c) => c.connected_port)).toEqual([evidence.captive_server.served['80'], evidence.captive_server.served['443']]);
    expect(evidence.captive_server.conversations.map((c) => [c.conversation, c.from, c.result])).toEqual([
      [1, SRC_ADDRESS, 'match'],
      [2, SRC_ADDRESS, 'match'],
    ]);
    expect(evidence.bytes_received).toBeGreaterThan(800);
  });

  it('a two-IP UDP capture replays every datagram of its five conversations on the one actor', async () => {
    const { action, evidence } = await runCaptive('two-ips-udp.pcap');
    expect(action.status, action.blocked_msg ?? '').toBe('ran');
    expect(action.blocked).toBe(false);
    expect(evidence.conversations.map((c) => [c.protocol, c.server_port, c.result])).toEqual(Array.from({ length: 5 }, () => ['udp', 53, 'match']));
    expect(evidence.bytes_received).toBe(evidence.bytes_sent);
  });

  it('an answer of the captive server altered in between is blocked, naming the conversation and segment', async () => {
    world().src.tamper = alterHttpAnswer('captive_ioc_pcap');
    try {
      const { job, action } = await runCaptive('two-ips-tcp.pcap');
      expectAlteredHttpAnswer(job, action);
    } finally {
      world().src.tamper = undefined;
    }
  });

  it('a captive_ioc_pcap action whose processed capture is gone ends incompatible with the reason (this director cannot perform it)', async () => {
    const action = await createPcapAction(world().server, world().operator, 'two-ips-tcp.pcap', 'captive_ioc_pcap');
    // Gone here and from the database's shared copy (SHARED_FILES=database, the default on PostgreSQL).
    await new SharedFiles(world().server.db, dataDir, true).remove(`pcap/processed/${action.upload_id}.pcap`);
    const { actions } = await waitForJob(world().server.db, await runJob(world(), 'actions', action.id));
    expect(actions[0]?.status).toBe('incompatible');
    expect(actions[0]?.blocked_msg).toBe(`The processed capture of PCAP upload ${action.upload_id} is not stored on this director.`);
  });

  it('a port the captive server cannot serve (another program holds it) ends errored with the reason, without talking to that program', async () => {
    let contacted = false;
    const squatter = net.createServer((c) => {
      contacted = true;
      c.end('not the capture');
    });
    await new Promise<void>((resolve) => squatter.listen({ port: 0, host: SRC_ADDRESS }, resolve));
    const port = (squatter.address() as net.AddressInfo).port;
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    const replay: ReplayScript = { upload_id: 1, bytes: 10, conversations: [{ protocol: 'tcp', client_port: 40000, server_port: port, segments: [{ from: 'client', data: b64('hello') }, { from: 'server', data: b64('world') }] }] };
    const ids = { work_id: 1, node_id: 1, job_id: 1, job_action_id: 1 };
    const times = { issued_at: new Date().toISOString(), expires_at: new Date(Date.now() + 60_000).toISOString() };
    const work: WorkPayload = { ...ids, ...times, role: 'source', action_type: 'captive_ioc_pcap', name: 'captive', details: { replay }, timeout_ms: 10_000, local_address: SRC_ADDRESS };
    try {
      const out = await captivePcapSource(work, new AbortController().signal, { allowHostCli: false });
      expect(out.outcome).toBe('errored');
      expect(out.blocked).toBeNull();
      expect(out.message).toMatch(new RegExp(`^The captive server could not serve port ${port} \\(.*EADDRINUSE.*\\) on ${SRC_ADDRESS.replaceAll('.', '\\.')}\\.$`));
      expect(contacted).toBe(false);
      // With the port free again, the same work replays and matches.
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
      const ok = await captivePcapSource(work, new AbortController().signal, { allowHostCli: false });
      expect(ok).toMatchObject({ outcome: 'ran', blocked: false, message: null, evidence: { bytes_sent: 5, bytes_received: 5 } });
    } finally {
      if (squatter.listening) squatter.close();
    }
  });
});
