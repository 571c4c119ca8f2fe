/**
 * A short description of a conversation from its first payload bytes: the HTTP request or status
 * line (with Host), the TLS ClientHello's server name, the DNS question, an SSH banner, or the
 * first line of another text protocol. Reads only what was captured; never throws.
 */

const HTTP_METHODS = ['GET ', 'POST ', 'PUT ', 'HEAD ', 'DELETE ', 'OPTIONS ', 'PATCH ', 'CONNECT ', 'TRACE '];

const DNS_TYPES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  35: 'NAPTR',
  43: 'DS',
  48: 'DNSKEY',
  64: 'SVCB',
  65: 'HTTPS',
  255: 'ANY',
};

function startsWith(b: Buffer, off: number, len: number, text: string): boolean {
  if (len < text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[off + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Printable ASCII of b[off, off + len) up to the first CR/LF, at most max characters. */
function firstLine(b: Buffer, off: number, len: number, max = 160): string | null {
  const end = off + Math.min(len, max);
  let i = off;
  for (; i < end; i++) {
    const c = b[i]!;
    if (c === 13 || c === 10) break;
    if ((c < 0x20 && c !== 9) || c > 0x7e) return null;
  }
  return b.toString('latin1', off, i).replace(/\t/g, ' ').trim() || null;
}

function headerValue(b: Buffer, off: number, len: number, name: string): string | null {
  const text = b.toString('latin1', off, off + Math.min(len, 4096));
  const m = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]{1,200})`, 'i').exec(text);
  return m?.[1]?.replace(/[^\x20-\x7e]/g, '').trim() || null;
}

/** DNS question at b[off] (a DNS message); null when it does not parse. */
export function dnsQuestion(b: Buffer, off: number, len: number): { response: boolean; name: string; type: string } | null {
  if (len < 17) return null;
  const flags = b.readUInt16BE(off + 2);
  const qd = b.readUInt16BE(off + 4);
  if (qd < 1 || qd > 16) return null;
  let p = off + 12;
  const end = off + len;
  const labels: string[] = [];
  for (let guard = 0; guard < 128; guard++) {
    if (p >= end) return null;
    const l = b[p]!;
    if (l === 0) {
      p++;
      break;
    }
    if (l > 63 || p + 1 + l > end) return null;
    let label = '';
    for (let i = 1; i <= l; i++) {
      const c = b[p + i]!;
      label += c > 0x20 && c < 0x7f ? String.fromCharCode(c) : '?';
    }
    labels.push(label);
    p += 1 + l;
  }
  if (p + 4 > end) return null;
  const qtype = b.readUInt16BE(p);
  return { response: (flags & 0x8000) !== 0, name: labels.join('.') || '<Root>', type: DNS_TYPES[qtype] ?? `TYPE${qtype}` };
}

/** The server name of a TLS ClientHello record at b[off]; '' when it has none; null when not a ClientHello. */
export function tlsServerName(b: Buffer, off: number, len: number): string | null {
  if (len < 43 || b[off] !== 0x16 || b[off + 1] !== 3 || b[off + 5] !== 1) return null;
  const end = off + len;
  let p = off + 9 + 2 + 32; // record header 5, handshake header 4, version 2, random 32
  if (p >= end) return '';
  p += 1 + b[p]!; // session id
  if (p + 2 > end) return '';
  p += 2 + b.readUInt16BE(p); // cipher suites
  if (p + 1 > end) return '';
  p += 1 + b[p]!; // compression methods
  if (p + 2 > end) return '';
  const extEnd = Math.min(end, p + 2 + b.readUInt16BE(p));
  p += 2;
  while (p + 4 <= extEnd) {
    const type = b.readUInt16BE(p);
    const l = b.readUInt16BE(p + 2);
    if (type === 0 && p + 9 <= extEnd) {
      const nameLen = b.readUInt16BE(p + 7);
      if (b[p + 6] === 0 && p + 9 + nameLen <= extEnd) return b.toString('latin1', p + 9, p + 9 + nameLen).replace(/[^\x20-\x7e]/g, '?');
      return '';
    }
    p += 4 + l;
  }
  return '';
}

export function payloadInfo(b: Buffer, off: number, len: number, isTcp: boolean, sport: number, dport: number): string | null {
  try {
    const dnsPort = sport === 53 || dport === 53 || sport === 5353 || dport === 5353 || sport === 5355 || dport === 5355;
    if (dnsPort) {
      const q = isTcp ? (len > 2 ? dnsQuestion(b, off + 2, len - 2) : null) : dnsQuestion(b, off, len);
      if (q) return `DNS ${q.response ? 'response' : 'query'} ${q.type} ${q.name}`;
    }
    if (isTcp) {
      for (const m of HTTP_METHODS) {
        if (startsWith(b, off, len, m)) {
          const line = firstLine(b, off, len);
          const host = headerValue(b, off, len, 'Host');
          return `HTTP ${line ?? m.trim()}${host ? ` (Host: ${host})` : ''}`;
        }
      }
      if (startsWith(b, off, len, 'HTTP/1.')) return `HTTP ${firstLine(b, off, len) ?? 'response'}`;
      const sni = tlsServerName(b, off, len);
      if (sni !== null) return sni ? `TLS ClientHello (SNI: ${sni})` : 'TLS ClientHello';
      if (startsWith(b, off, len, 'SSH-')) return firstLine(b, off, len);
    }
    const line = firstLine(b, off, Math.min(len, 200), 120);
    if (line && line.length >= 3) return line;
    return null;
  } catch {
    return null;
  }
}
