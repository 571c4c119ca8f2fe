/**
 * A minimal DNS over UDP: encode a query, answer queries from a function (one record of the asked
 * type), and send one query with a time bound. Enough for the target-as-DNS-server dns action and
 * captive_dns; records are compared by their encoded data.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import crypto from 'node:crypto';

export const TYPE_CODES: Record<string, number> = { A: 1, NS: 2, CNAME: 5, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33 };
const TYPE_NAMES = Object.fromEntries(Object.entries(TYPE_CODES).map(([k, v]) => [v, k]));
const MAX_DNS_BYTES = 4096;

function encodeName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').split('.').filter(Boolean);
  const parts = labels.map((l) => {
    const b = Buffer.from(l, 'utf8').subarray(0, 63);
    return Buffer.concat([Buffer.from([b.length]), b]);
  });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

/** Reads a (possibly compressed) name at offset; returns the name and the offset after it. */
function decodeName(buf: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let pos = offset;
  let next = -1;
  for (let hops = 0; hops < 64; hops++) {
    const len = buf[pos];
    if (len === undefined) throw new Error('truncated name');
    if (len === 0) {
      pos++;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (next < 0) next = pos + 2;
      pos = ((len & 0x3f) << 8) | (buf[pos + 1] ?? 0);
      continue;
    }
    labels.push(buf.subarray(pos + 1, pos + 1 + len).toString('utf8'));
    pos += 1 + len;
  }
  return { name: labels.join('.'), next: next < 0 ? pos : next };
}

function ipv6Bytes(text: string): Buffer {
  const [head = '', tail = ''] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = text.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);

/** The record data of a value written as text: '10.0.0.1', 'v=spf1 …', '10 mail.example.com', '0 5 5060 sip.example.com'. */
export function encodeRdata(type: string, value: string): Buffer {
  const v = value.trim();
  switch (type) {
    case 'A':
      if (!net.isIPv4(v)) throw new Error(`"${v}" is not an IPv4 address`);
      return Buffer.from(v.split('.').map(Number));
    case 'AAAA':
      if (!net.isIPv6(v)) throw new Error(`"${v}" is not an IPv6 address`);
      return ipv6Bytes(v);
    case 'TXT': {
      const b = Buffer.from(v, 'utf8');
      const chunks: Buffer[] = [];
      for (let i = 0; i < b.length || i === 0; i += 255) chunks.push(Buffer.concat([Buffer.from([Math.min(255, b.length - i)]), b.subarray(i, i + 255)]));
      return Buffer.concat(chunks);
    }
    case 'MX': {
      const m = /^(\d+)\s+(\S+)$/.exec(v);
      return Buffer.concat([u16(m ? Number(m[1]) : 10), encodeName(m?.[2] ?? v)]);
    }
    case 'SRV': {
      const m = /^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)$/.exec(v);
      if (!m) throw new Error(`"${v}" is not "priority weight port target"`);
      return Buffer.concat([u16(Number(m[1])), u16(Number(m[2])), u16(Number(m[3])), encodeName(m[4] ?? '')]);
    }
    default:
      return encodeName(v);
  }
}

/** Record data as text, for evidence. */
export function renderRdata(type: string, data: Buffer, msg: Buffer, offset: number): string {
  if (type === 'A') return [...data].join('.');
  if (type === 'AAAA') return (data.toString('hex').match(/.{4}/g) ?? []).map((g) => g.replace(/^0+(?=.)/, '')).join(':');
  if (type === 'TXT') return data.subarray(1).toString('utf8');
  if (type === 'MX') return `${data.readUInt16BE(0)} ${decodeName(msg, offset + 2).name}`;
  if (type === 'SRV') return `${data.readUInt16BE(0)} ${data.readUInt16BE(2)} ${data.readUInt16BE(4)} ${decodeName(msg, offset + 6).name}`;
  return decodeName(msg, offset).name;
}

export function encodeQuery(id: number, name: string, type: string): Buffer {
  return Buffer.concat([u16(id), u16(0x0100), u16(1), u16(0), u16(0), u16(0), encodeName(name), u16(TYPE_CODES[type] ?? 1), u16(1)]);
}

export type Answerer = (name: string, type: string) => Buffer | null;

/** Serves DNS on a bound UDP socket: NOERROR with one record, or NXDOMAIN; malformed packets are dropped. */
export function serveDns(sock: dgram.Socket, answer: Answerer, seen: (q: { from: string; name: string; type: string }) => void, tamper?: (data: Buffer) => Buffer): void {
  sock.on('message', (msg, rinfo) => {
    try {
      if (msg.length < 12 || msg.length > MAX_DNS_BYTES) return;
      const q = decodeName(msg, 12);
      const typeCode = msg.readUInt16BE(q.next);
      const question = msg.subarray(12, q.next + 4);
      const type = TYPE_NAMES[typeCode] ?? String(typeCode);
      seen({ from: rinfo.address, name: q.name, type });
      const data = answer(q.name.toLowerCase(), type);
      const flags = 0x8400 | (msg.readUInt16BE(2) & 0x0100) | (data ? 0 : 3);
      const header = Buffer.concat([msg.subarray(0, 2), u16(flags), u16(1), u16(data ? 1 : 0), u16(0), u16(0)]);
      const rr = data ? Buffer.concat([u16(0xc00c), u16(typeCode), u16(1), Buffer.from([0, 0, 0, 60]), u16(data.length), data]) : Buffer.alloc(0);
      const out = Buffer.concat([header, question, rr]);
      sock.send(tamper ? tamper(out) : out, rinfo.port, rinfo.address);
    } catch {
      /* not a DNS query */
    }
  });
}

export interface DnsAnswer {
  rcode: number;
  answers: { type: string; data: Buffer; text: string }[];
}

/** One query to server:port, bounded in time; null when no answer arrived. */
/** Sends one query to `server:port` (from the address `from` when given) and reads the answer; null when none came in time. */
export function queryDns(server: string, port: number, name: string, type: string, timeoutMs: number, signal: AbortSignal, from?: string): Promise<DnsAnswer | null> {
  return new Promise((resolve) => {
    const sock = dgram.createSocket(net.isIPv6(server) ? 'udp6' : 'udp4');
    const id = crypto.randomInt(0, 0xffff);
    const finish = (a: DnsAnswer | null) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      try {
        sock.close();
      } catch {
        /* closed */
      }
      resolve(a);
    };
    const onAbort = () => finish(null);
    const timer = setTimeout(() => finish(null), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    sock.on('error', () => finish(null));
    sock.on('message', (msg) => {
      if (msg.length < 12 || msg.readUInt16BE(0) !== id) return;
      try {
        const rcode = msg.readUInt16BE(2) & 0x0f;
        const count = msg.readUInt16BE(6);
        let pos = decodeName(msg, 12).next + 4;
        const answers: DnsAnswer['answers'] = [];
        for (let i = 0; i < count; i++) {
          pos = decodeName(msg, pos).next;
          const t = TYPE_NAMES[msg.readUInt16BE(pos)] ?? String(msg.readUInt16BE(pos));
          const len = msg.readUInt16BE(pos + 8);
          const start = pos + 10;
          const data = msg.subarray(start, start + len);
          answers.push({ type: t, data, text: renderRdata(t, data, msg, start) });
          pos = start + len;
        }
        finish({ rcode, answers });
      } catch {
        finish({ rcode: -1, answers: [] });
      }
    });
    const send = () =>
      sock.send(encodeQuery(id, name, type), port, server, (err) => {
        if (err) finish(null);
      });
    if (from) sock.bind(0, from, send);
    else send();
  });
}

export const RCODES: Record<number, string> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED', [-1]: 'malformed answer' };
