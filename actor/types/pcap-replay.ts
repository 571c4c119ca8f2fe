/**
 * pcap actions: a byte-for-byte replay of the kept conversations of a capture (details.replay, put
 * in the signed work by the director). The target serves the server side of each conversation on
 * its server port (on its own address), the source plays the client side from its own address, one
 * conversation after the other in the capture's order. Each side checks that what it receives is
 * what was captured; the target resets a connection whose client bytes differ, the source names the
 * first conversation and segment that went wrong (refused, reset, timed out, altered content).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import type { ReplayScript } from '../../src/api/contracts/replay';
import { connectResult, preview } from '../net-util';
import { Incompatible, type Evidence, type Outcome } from './contract';
import { DatagramInbox, StreamInbox, limitOf, readScript, sideName, type Conversation } from './replay-io';

export { startPcapTarget } from './pcap-replay-target';

// The source side: the client of every conversation, then the verdict.

interface ConvLog {
  conversation: number;
  protocol: string;
  server_port: number;
  connected_port: number;
  segments: number;
  result: string;
  failed_segment?: { index: number; direction: string; expected_bytes: number; received_bytes: number; expected: string; received: string };
}

/** The registry's entry point: the client side against the destination actor, through its port map. */
export function pcapPeerSource(w: WorkPayload, signal: AbortSignal): Promise<Outcome> {
  if (!w.peer_address) throw new Incompatible('pcap needs a destination actor.');
  return pcapSource(w, w.peer_address, signal, (port) => w.port_map?.[String(port)] ?? port);
}

export async function pcapSource(w: WorkPayload, host: string, signal: AbortSignal, mapped: (p: number) => number): Promise<Outcome> {
  const convs = readScript(w);
  const log: ConvLog[] = [];
  let sent = 0;
  let received = 0;
  const evidence = (): Evidence => ({ peer: host, upload_id: (w.details.replay as ReplayScript).upload_id, conversations: log, bytes_sent: sent, bytes_received: received, target_failures: w.port_failures ?? {} });
  for (const c of convs) {
    if (signal.aborted) throw new Error('aborted');
    const entry: ConvLog = { conversation: c.n, protocol: c.protocol, server_port: c.serverPort, connected_port: mapped(c.serverPort), segments: c.segments.length, result: 'match' };
    log.push(entry);
    const play = c.protocol === 'tcp' ? playTcp : playUdp;
    const failure = await play(c, w.local_address, host, entry, signal, (n, dir) => (dir === 'out' ? (sent += n) : (received += n)));
    if (signal.aborted) throw new Error('aborted');
    if (failure) return { outcome: 'ran', blocked: true, message: `Conversation ${c.n} (${c.protocol.toUpperCase()} port ${c.serverPort}): ${failure}`, evidence: evidence() };
  }
  return { outcome: 'ran', blocked: false, message: null, evidence: evidence() };
}

type Count = (n: number, dir: 'in' | 'out') => void;

/** Records the first segment that did not come as captured, and says why. */
function mismatch(entry: ConvLog, i: number, s: { from: 'client' | 'server'; data: Buffer }, got: Buffer, why: string): string {
  entry.result = why;
  entry.failed_segment = { index: i + 1, direction: sideName(s.from), expected_bytes: s.data.length, received_bytes: got.length, expected: preview(s.data, 80), received: preview(got, 80) };
  return `segment ${i + 1} (${sideName(s.from)}) ${why}`;
}

async function playTcp(c: Conversation, local: string, host: string, entry: ConvLog, signal: AbortSignal, count: Count): Promise<string | null> {
  const sock = net.connect({ host, port: entry.connected_port, localAddress: local, allowHalfOpen: true });
  const inbox = new StreamInbox(sock, limitOf(c, 'server'));
  try {
    const connected = await connectResult(sock);
    if (connected !== 'open') {
      entry.result = connected;
      return `the connection was ${connected === 'timeout' ? 'timed out' : connected}`;
    }
    for (const [i, s] of c.segments.entries()) {
      if (s.from === 'client') {
        if (inbox.stop && inbox.stop !== 'end') return mismatch(entry, i, s, Buffer.alloc(0), `not sent: connection ${inbox.stop}`);
        sock.write(s.data);
        count(s.data.length, 'out');
        continue;
      }
      const got = await inbox.take(s.data.length, signal);
      count(got.length, 'in');
      if (signal.aborted) return null;
      if (got.length < s.data.length) return mismatch(entry, i, s, got, inbox.stop && inbox.stop !== 'end' ? `connection ${inbox.stop}` : inbox.stop === 'end' ? 'connection closed early' : 'timed out');
      if (!got.equals(s.data)) return mismatch(entry, i, s, got, 'differs from the capture (altered content)');
    }
    sock.end();
    // The target ends its side once it has checked every client byte; a reset says it did not match.
    const end = await inbox.ended(signal);
    if (inbox.pending > 0) return mismatch(entry, c.segments.length, { from: 'server', data: Buffer.alloc(0) }, Buffer.alloc(inbox.pending), 'extra bytes after the capture (altered content)');
    if (end !== 'end' && !signal.aborted) {
      entry.result = end;
      return `the connection ${end === 'timeout' ? 'was not ended (timed out)' : `was ${end}`} after the last segment`;
    }
    return null;
  } finally {
    sock.destroy();
  }
}

async function playUdp(c: Conversation, local: string, host: string, entry: ConvLog, signal: AbortSignal, count: Count): Promise<string | null> {
  const sock = dgram.createSocket('udp4');
  sock.on('error', () => {});
  const inbox = new DatagramInbox(sock);
  try {
    await new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.bind({ address: local, port: 0 }, () => resolve());
    });
    for (const [i, s] of c.segments.entries()) {
      if (s.from === 'client') {
        await new Promise<void>((resolve) => sock.send(s.data, entry.connected_port, host, () => resolve()));
        count(s.data.length, 'out');
        continue;
      }
      const got = await inbox.next(signal);
      if (signal.aborted) return null;
      if (!got) return mismatch(entry, i, s, Buffer.alloc(0), 'no datagram (timed out)');
      count(got.length, 'in');
      if (!got.equals(s.data)) return mismatch(entry, i, s, got, 'differs from the capture (altered content)');
    }
    return null;
  } finally {
    sock.close();
  }
}
