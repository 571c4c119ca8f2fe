/** The target side of a pcap replay: the server of every conversation (see pcap-replay.ts). */
import dgram from 'node:dgram';
import net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { bindUdp, listenTcp } from '../net-util';
import type { Evidence, PerformOptions, TargetHandle } from './contract';
import { StreamInbox, limitOf, readScript, sideName, type Conversation } from './replay-io';

export async function startPcapTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const convs = readScript(w);
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper(w.action_type, data) : data);
  const port_map: Record<string, number> = {};
  const port_failures: Record<string, string> = {};
  const notes: string[] = [];
  const served: { conversation: number; from: string; result: string }[] = [];
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const udp: dgram.Socket[] = [];
  // Connections (TCP) and client endpoints (UDP) take the conversations of their port in order.
  const queues = new Map<string, Conversation[]>();
  for (const c of convs) {
    const key = `${c.protocol}:${c.serverPort}`;
    queues.set(key, [...(queues.get(key) ?? []), c]);
  }
  const close = async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    for (const u of udp.splice(0)) u.close();
  };
  const bound = (port: number, b: { port: number; note?: string }) => {
    port_map[String(port)] = b.port;
    if (b.note) notes.push(b.note);
  };
  try {
    for (const [key, queue] of queues) {
      const port = queue[0]!.serverPort;
      if (key.startsWith('tcp')) {
        const server = net.createServer({ allowHalfOpen: true }, (sock) => {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          const c = queue.shift();
          if (!c) return void sock.destroy();
          const from = sock.remoteAddress ?? '';
          void serveTcp(sock, c, tamper).then((result) => served.push({ conversation: c.n, from, result }));
        });
        servers.push(server);
        try {
          bound(port, await listenTcp(server, w.local_address, port));
        } catch (e) {
          port_failures[String(port)] = (e as Error).message;
        }
      } else {
        const sock = dgram.createSocket('udp4');
        udp.push(sock);
        serveUdp(sock, queue, tamper, (n, from, result) => served.push({ conversation: n, from, result }));
        try {
          bound(port, await bindUdp(sock, w.local_address, port));
        } catch (e) {
          port_failures[String(port)] = (e as Error).message;
        }
      }
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { port_map, port_failures, evidence: (): Evidence => ({ served: port_map, failures: port_failures, notes, conversations: served.slice(0, 100) }), close };
}

async function serveTcp(sock: net.Socket, c: Conversation, tamper: (d: Buffer) => Buffer): Promise<string> {
  sock.on('error', () => {});
  const inbox = new StreamInbox(sock, limitOf(c, 'client'));
  for (const [i, s] of c.segments.entries()) {
    if (s.from === 'server') {
      sock.write(tamper(s.data));
      continue;
    }
    const got = await inbox.take(s.data.length);
    if (!got.equals(s.data)) {
      // What the client sent is not the capture's: the conversation stops here, visibly.
      sock.resetAndDestroy();
      return `segment ${i + 1} (${sideName(s.from)}) ${got.length < s.data.length ? (inbox.stop ?? 'timed out') : 'differs'}`;
    }
  }
  sock.end();
  return 'match';
}

function serveUdp(sock: dgram.Socket, queue: Conversation[], tamper: (d: Buffer) => Buffer, done: (n: number, from: string, result: string) => void): void {
  const clients = new Map<string, { c: Conversation; i: number } | null>();
  sock.on('message', (msg, rinfo) => {
    const key = `${rinfo.address}:${rinfo.port}`;
    if (!clients.has(key)) {
      const c = queue.shift();
      clients.set(key, c ? { c, i: 0 } : null);
    }
    const st = clients.get(key);
    if (!st) return;
    const seg = st.c.segments[st.i];
    if (!seg || seg.from !== 'client' || !msg.equals(seg.data)) {
      clients.set(key, null);
      return done(st.c.n, rinfo.address, `segment ${st.i + 1} differs`);
    }
    st.i++;
    while (st.c.segments[st.i]?.from === 'server') sock.send(tamper(st.c.segments[st.i++]!.data), rinfo.port, rinfo.address);
    if (st.i >= st.c.segments.length) done(st.c.n, rinfo.address, 'match');
  });
}
