/** The replay script extractor and the actor's two replay sides on loopback, without a director. */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as B from '../../server/pcap/testing/builder';
import { ReplayScriptError, extractReplayScript } from '../../server/engine/replay-script';
import { pcapSource, startPcapTarget } from '../../actor/types/pcap-replay';
import type { WorkPayload } from '@/api/contracts/engine';
import { REPLAY_LIMITS, type ReplayScript } from '@/api/contracts/replay';
import { DST_ADDRESS, SRC_ADDRESS } from './loopback';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-replay-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const framed = (ips: B.Bytes[]): B.Packet[] =>
  ips.map((ip, i) => ({ ts: [1_700_000_000, i * 1000] as [number, number], data: B.eth({ src: '02:00:00:00:00:01', dst: '02:00:00:00:00:02', type: 0x0800, payload: ip }) }));

function captureFile(name: string, ips: B.Bytes[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, B.buildPcap(framed(ips), { linkType: 1 }));
  return file;
}

const C = '10.1.0.1';
const S = '10.1.0.2';
const seg = (from: 'c' | 's', seq: number, ack: number, flags: number, data = '') =>
  B.ipPacket(from === 'c' ? C : S, from === 'c' ? S : C, 6, B.tcp({ sport: from === 'c' ? 40000 : 8080, dport: from === 'c' ? 8080 : 40000, seq, ack, flags, payload: Buffer.from(data) }));

describe('the replay script of a capture', () => {
  it('drops retransmitted bytes, merges one side’s consecutive segments and takes the SYN/ACK receiver as the client', async () => {
    const { SYN, ACK, PSH } = B.TCP_FLAGS;
    const file = captureFile('retrans.pcap', [
      seg('s', 500, 101, SYN | ACK), // the capture starts at the SYN/ACK: the client is its receiver
      seg('c', 101, 501, ACK),
      seg('c', 101, 501, PSH | ACK, 'HELLO '),
      seg('c', 101, 501, PSH | ACK, 'HELLO '), // retransmitted
      seg('c', 104, 501, PSH | ACK, 'LO WORLD'), // overlaps the bytes already sent: only ' WORLD' is new
      seg('s', 501, 115, PSH | ACK, 'hi'),
    ]);
    const script = await extractReplayScript(file, 1);
    expect(script.conversations).toHaveLength(1);
    const c = script.conversations[0]!;
    expect([c.protocol, c.client_port, c.server_port]).toEqual(['tcp', 40000, 8080]);
    expect(c.segments.map((s) => [s.from, Buffer.from(s.data, 'base64').toString()])).toEqual([
      ['client', 'HELLO WORLD'],
      ['server', 'hi'],
    ]);
  });

  it(`refuses a capture carrying more than ${REPLAY_LIMITS.maxBytes} bytes of payload, with the reason`, async () => {
    const big = Array.from({ length: 20 }, (_, i) => B.ipPacket(C, S, 17, B.udp(50000, 53, Buffer.alloc(60_000, i))));
    const file = captureFile('big.pcap', big);
    await expect(extractReplayScript(file, 2)).rejects.toThrow(ReplayScriptError);
    await expect(extractReplayScript(file, 2)).rejects.toThrow(`more than ${REPLAY_LIMITS.maxBytes} bytes of payload`);
  });
});

describe('the actor replay sides on loopback', () => {
  const script: ReplayScript = {
    upload_id: 3,
    bytes: 9,
    conversations: [{ protocol: 'tcp', client_port: 40000, server_port: 47401, segments: [{ from: 'client', data: Buffer.from('ping').toString('base64') }, { from: 'server', data: Buffer.from('pong!').toString('base64') }] }],
  };
  const work = (role: 'source' | 'target'): WorkPayload => ({
    work_id: 1,
    node_id: 1,
    job_id: 1,
    job_action_id: 1,
    role,
    action_type: 'pcap',
    name: 'replay',
    details: { upload: 3, replay: script },
    timeout_ms: 10_000,
    local_address: role === 'target' ? DST_ADDRESS : SRC_ADDRESS,
    peer_address: role === 'target' ? SRC_ADDRESS : DST_ADDRESS,
    issued_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 60_000).toISOString(),
  });

  it('the target resets a connection whose client bytes differ from the capture', async () => {
    const target = await startPcapTarget(work('target'), { allowHostCli: false });
    try {
      const port = target.port_map['47401'] ?? 0;
      const outcome = await new Promise<string>((resolve) => {
        const sock = net.connect({ host: DST_ADDRESS, port, localAddress: SRC_ADDRESS }, () => sock.write('pinG'));
        sock.on('data', () => resolve('answered'));
        sock.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
        sock.on('end', () => resolve('ended'));
      });
      expect(outcome).toBe('ECONNRESET');
      expect(target.evidence().conversations).toEqual([{ conversation: 1, from: SRC_ADDRESS, result: 'segment 1 (client to server) differs' }]);
    } finally {
      await target.close();
    }
  });

  it('a source whose target serves nothing is blocked: the connection was refused', async () => {
    const outcome = await pcapSource(work('source'), DST_ADDRESS, new AbortController().signal, (p) => p);
    expect(outcome).toMatchObject({ outcome: 'ran', blocked: true, message: 'Conversation 1 (TCP port 47401): the connection was refused' });
  });
});
