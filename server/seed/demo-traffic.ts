/**
 * The packet captures of the demo seed's PCAP and Captive IOC PCAP Actions, built with the capture
 * builder of server/pcap/testing: the conversations each Action describes, between the attacker and
 * destination addresses it records, as Ethernet frames in a classic pcap. The content is harmless
 * look-alike traffic (protocol greetings, HTTP requests and answers, TLS-like records of
 * pseudo-random bytes), never a real exploit or sample; the same file name always gives the same bytes.
 */
import zlib from 'node:zlib';
import { buildPcap, clock, framers, prng, tcpSession, type Packet } from '../pcap/testing/builder';

interface Exchange {
  fromClient: boolean;
  data: Buffer;
}
interface Conversation {
  port: number;
  exchanges: Exchange[];
}
type Random = () => number;

const client = (data: Buffer | string): Exchange => ({ fromClient: true, data: Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1') });
const server = (data: Buffer | string): Exchange => ({ fromClient: false, data: Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1') });
const bytes = (rnd: Random, n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));

// ------------------------------------------------------------------------------------------------
// TLS-like records: a ClientHello (with SNI when given) that the conversation table recognizes, then
// records of pseudo-random bytes standing in for the encrypted handshake and application data.

function tlsRecord(type: number, body: Buffer): Buffer {
  const h = Buffer.from([type, 3, 3, 0, 0]);
  h.writeUInt16BE(body.length, 3);
  return Buffer.concat([h, body]);
}

function clientHello(rnd: Random, sni: string | null): Buffer {
  const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
  const suites = Buffer.from([0xc0, 0x2c, 0xc0, 0x2b, 0xc0, 0x30, 0xc0, 0x2f, 0x00, 0x9f, 0x00, 0x9e]);
  const name = sni ? Buffer.from(sni, 'ascii') : null;
  const sniExt = name ? Buffer.concat([u16(0), u16(name.length + 5), u16(name.length + 3), Buffer.from([0]), u16(name.length), name]) : Buffer.alloc(0);
  const groups = Buffer.concat([u16(10), u16(6), u16(4), u16(0x17), u16(0x18)]);
  const exts = Buffer.concat([sniExt, groups]);
  const body = Buffer.concat([Buffer.from([3, 3]), bytes(rnd, 32), Buffer.from([0]), u16(suites.length), suites, Buffer.from([1, 0]), u16(exts.length), exts]);
  const hs = Buffer.concat([Buffer.from([1, 0, body.length >> 8, body.length & 0xff]), body]);
  return tlsRecord(0x16, hs);
}

/** A TLS session: ClientHello, the server's handshake flight (with a certificate naming `subject`), then `rounds` of application data each way. */
function tlsSession(rnd: Random, port: number, sni: string | null, subject: string, rounds: number): Conversation {
  const cert = Buffer.concat([Buffer.from([0x0b]), bytes(rnd, 40), Buffer.from(`CN=${subject}`, 'ascii'), bytes(rnd, 120)]);
  const exchanges = [client(clientHello(rnd, sni)), server(Buffer.concat([tlsRecord(0x16, Buffer.concat([Buffer.from([2]), bytes(rnd, 70)])), tlsRecord(0x16, cert)])), client(tlsRecord(0x14, Buffer.from([1])))];
  for (let i = 0; i < rounds; i++) exchanges.push(client(tlsRecord(0x17, bytes(rnd, 96 + i * 16))), server(tlsRecord(0x17, bytes(rnd, 64 + i * 32))));
  return { port, exchanges };
}

// ------------------------------------------------------------------------------------------------
// Clear-text protocols

function httpAnswer(status: string, type: string, body: Buffer | string): string | Buffer {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1');
  const head = `HTTP/1.1 ${status}\r\nServer: nginx\r\nContent-Type: ${type}\r\nContent-Length: ${b.length}\r\nConnection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), b]);
}

function smtpSession(from: string, to: string, subject: string): Conversation {
  const message = [
    `From: <${from}>`,
    `To: <${to}>`,
    `Subject: ${subject}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Please see the attached invoice and confirm the payment today.',
    '(Vigil demo traffic: this message carries no attachment.)',
    '.',
    '',
  ].join('\r\n');
  return {
    port: 25,
    exchanges: [
      server('220 mail.example.net ESMTP Postfix\r\n'),
      client('EHLO DESKTOP-DEMO\r\n'),
      server('250-mail.example.net\r\n250-SIZE 10240000\r\n250 8BITMIME\r\n'),
      client(`MAIL FROM:<${from}>\r\n`),
      server('250 2.1.0 Ok\r\n'),
      client(`RCPT TO:<${to}>\r\n`),
      server('250 2.1.5 Ok\r\n'),
      client('DATA\r\n'),
      server('354 End data with <CR><LF>.<CR><LF>\r\n'),
      client(message),
      server('250 2.0.0 Ok: queued as 4F2A81C03\r\n'),
      client('QUIT\r\n'),
      server('221 2.0.0 Bye\r\n'),
    ],
  };
}

/** An SMB1 message over NetBIOS: the 32-byte header (command, NT status) and a body. */
function smb(command: number, status: number, fromServer: boolean, body: Buffer): Buffer {
  const h = Buffer.alloc(32);
  Buffer.from([0xff, 0x53, 0x4d, 0x42]).copy(h, 0);
  h[4] = command;
  h.writeUInt32LE(status >>> 0, 5);
  h[9] = fromServer ? 0x98 : 0x18;
  h.writeUInt16LE(0xc807, 10);
  h.writeUInt16LE(0xfeff, 26);
  const msg = Buffer.concat([h, body]);
  const nb = Buffer.from([0, 0, msg.length >> 8, msg.length & 0xff]);
  return Buffer.concat([nb, msg]);
}

/** The MS17-010 check sequence (negotiate, anonymous session, IPC$, PeekNamedPipe answered STATUS_INSUFF_SERVER_RESOURCES), without any exploit payload. */
function smbProbe(): Conversation {
  const dialects = Buffer.from('\x02PC NETWORK PROGRAM 1.0\x00\x02LANMAN1.0\x00\x02NT LM 0.12\x00', 'latin1');
  const negotiate = Buffer.concat([Buffer.from([0, dialects.length & 0xff, dialects.length >> 8]), dialects]);
  const ipc = Buffer.from('\\\\10.0.0.1\\IPC$\x00?????\x00', 'latin1');
  return {
    port: 445,
    exchanges: [
      client(smb(0x72, 0, false, negotiate)),
      server(smb(0x72, 0, true, Buffer.concat([Buffer.from([17, 2, 0]), Buffer.alloc(34)]))),
      client(smb(0x73, 0, false, Buffer.concat([Buffer.from([13, 0xff, 0, 0, 0]), Buffer.alloc(24), Buffer.from('Windows 2000 2195\x00Windows 2000 5.0\x00', 'latin1')]))),
      server(smb(0x73, 0, true, Buffer.concat([Buffer.from([3, 0xff, 0, 0, 0, 0, 0]), Buffer.from('Windows 7 Professional 7601 Service Pack 1\x00', 'latin1')]))),
      client(smb(0x75, 0, false, Buffer.concat([Buffer.from([4, 0xff, 0, 0, 0, 0, 0, 1, 0]), ipc]))),
      server(smb(0x75, 0, true, Buffer.from([3, 0xff, 0, 0, 0, 1, 0, 7, 0, 0x49, 0x50, 0x43, 0]))),
      client(smb(0x25, 0, false, Buffer.concat([Buffer.from([16]), Buffer.alloc(26), Buffer.from([0x23, 0, 0, 0, 0x5c, 0x50, 0x49, 0x50, 0x45, 0x5c, 0])]))),
      server(smb(0x25, 0xc0000205, true, Buffer.from([0, 0, 0]))),
    ],
  };
}

/** An RDP logon attempt: X.224 connection request with the user's cookie, confirm, TLS-like credentials, refusal. */
function rdpAttempt(rnd: Random, user: string): Conversation {
  const cookie = Buffer.from(`Cookie: mstshash=${user}\r\n`, 'latin1');
  const neg = Buffer.from([1, 0, 8, 0, 3, 0, 0, 0]);
  const x224 = Buffer.concat([Buffer.from([6 + cookie.length + neg.length, 0xe0, 0, 0, 0, 0, 0]), cookie, neg]);
  const tpkt = (b: Buffer) => Buffer.concat([Buffer.from([3, 0, (b.length + 4) >> 8, (b.length + 4) & 0xff]), b]);
  return {
    port: 3389,
    exchanges: [
      client(tpkt(x224)),
      server(tpkt(Buffer.from([14, 0xd0, 0, 0, 0x12, 0x34, 0, 2, 0, 8, 0, 2, 0, 0, 0]))),
      client(tlsRecord(0x17, bytes(rnd, 180))),
      server(tlsRecord(0x15, bytes(rnd, 26))),
    ],
  };
}

/** The form a TrickBot module posts (its process list), with nothing in it. */
const FORM = '--demo\r\nContent-Disposition: form-data; name="proclist"\r\n\r\nsvchost.exe\r\n--demo--\r\n';

// ------------------------------------------------------------------------------------------------
// The conversations of each seeded capture (by its file name).

const TRAFFIC: Record<string, (rnd: Random, target: string) => Conversation[]> = {
  'cobaltstrike_https_beacon.pcap': (rnd) => [1, 2, 3].map(() => tlsSession(rnd, 443, 'cdn.beacon-demo.example', 'Major Cobalt Strike', 1)),
  'emotet_spam_smtp.pcap': () => [
    smtpSession('billing@invoices-demo.example', 'j.doe@example.net', 'Overdue invoice #88412'),
    smtpSession('billing@invoices-demo.example', 'a.smith@example.net', 'RE: Payment details'),
  ],
  'ms17_010_eternalblue.pcap': () => [smbProbe()],
  'trickbot_c2_http.pcap': (_rnd, target) => [
    { port: 447, exchanges: [client(`GET /mor84/DESKTOP-DEMO_W10019041.5A1B2C3D/5/spk/ HTTP/1.1\r\nHost: ${target}:447\r\nUser-Agent: curl/7.55.1\r\n\r\n`), server(httpAnswer('200 OK', 'text/plain', '/1/'))] },
    {
      port: 449,
      exchanges: [
        client(`POST /mor84/DESKTOP-DEMO_W10019041.5A1B2C3D/90 HTTP/1.1\r\nHost: ${target}:449\r\nContent-Type: multipart/form-data; boundary=demo\r\nContent-Length: ${FORM.length}\r\n\r\n${FORM}`),
        server(httpAnswer('200 OK', 'text/plain', '/1/')),
      ],
    },
  ],
  'rdp_password_spray.pcap': (rnd) => ['administrator', 'admin', 'backup', 'helpdesk', 'scanner', 'svc_sql', 'j.doe', 'a.smith'].map((u) => rdpAttempt(rnd, u)),
  'qakbot_c2_checkin.pcap': (rnd) => [tlsSession(rnd, 443, null, 'nuvgfpe.biz', 2)],
  'icedid_gzip_loader.pcap': (_rnd, target) => [
    {
      port: 80,
      exchanges: [
        client(`GET / HTTP/1.1\r\nConnection: Keep-Alive\r\nCookie: __gads=3000016521:1:1190:100; _gat=10.0.19041.64; _u=44454D4F:44454D4F:1A2B3C4D\r\nHost: ${target}\r\n\r\n`),
        server(httpAnswer('200 OK', 'application/gzip', zlib.gzipSync(Buffer.from('Vigil demo: a harmless stand-in for the IcedID loader payload.\n')))),
      ],
    },
  ],
  'asyncrat_tls_c2.pcap': (rnd) => [tlsSession(rnd, 6606, null, 'AsyncRAT Server', 3)],
};

const seedOf = (name: string) => [...name].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 7);

/** The capture of a seeded PCAP Action between its attacker and destination, or null when the seed has none by that name. */
export function demoCapture(file: string, attacker: string, target: string): Buffer | null {
  const traffic = TRAFFIC[file];
  if (!traffic) return null;
  const rnd = prng(seedOf(file));
  const frame = framers.ethernet('00:0c:29:3e:5a:01', '00:50:56:9a:7c:02');
  const time = clock(1_760_000_000 + (seedOf(file) % 1_000_000), 0, 2_000_000);
  const packets: Packet[] = [];
  traffic(rnd, target).forEach((conv, i) => {
    const session = tcpSession({
      client: { ip: attacker, port: 49_700 + i * 3 },
      server: { ip: target, port: conv.port },
      exchanges: conv.exchanges,
      isnClient: Math.floor(rnd() * 2 ** 32),
      isnServer: Math.floor(rnd() * 2 ** 32),
    });
    for (const p of session) packets.push({ ts: time.next(), data: frame(p.ip, false, p.fromClient) });
    time.next(300_000_000);
  });
  return buildPcap(packets, { linkType: 1 });
}
