/**
 * What a file_transfer's details ask for, checked on both actors before anything crosses: the app
 * layer and port, the method, the content encodings (and their programs), the tunnel with its CIDR,
 * DNS domain and DNS server. What this actor cannot do is Incompatible with the reason.
 *
 * A monitor's runtime values (MON-038) arrive as details too: orig_file_name is the name the file
 * crosses as (the http Content-Disposition, the ftp/scp file name, the name inside archives; the
 * library's name otherwise), path the http(s) request path or the ftp file path (scp keeps its last
 * segment: its forced command serves one folder), referer the http(s) Referer header (ftp and scp
 * have none).
 */
import net from 'node:net';
import type { WorkFile, WorkPayload } from '../../src/api/contracts/engine';
import { MAX_WORK_FILE_BYTES } from '../../src/api/contracts/engine';
import { Incompatible, type PerformOptions } from './contract';
import { checkDomain } from './dns-tunnel';
import { parseEncodings, type Encoding } from './encodings';

export const MAX_WIRE_BYTES = MAX_WORK_FILE_BYTES + 64 * 1024;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ftp: 21, scp: 25 };
export const SSH_PORT = 22;
export const DNS_PORT = 53;

export interface Plan {
  layer: 'http' | 'https' | 'ftp' | 'scp';
  port: number;
  method: 'GET' | 'POST' | 'PUT';
  encodings: Encoding[];
  file: WorkFile;
  /** The name the file is served and stored as (a path for http). */
  path: string;
  /** The name the file crosses as (Content-Disposition, archive entries): orig_file_name, else the library's. */
  name: string;
  /** The http(s) Referer header ('' for none). */
  referer: string;
  /** No target_port: the app layer's default port (served elsewhere when the host already uses it). */
  defaultPort: boolean;
  tunnel: 'none' | 'ssh' | 'dns';
  /** The destination actor's address (it serves, and answers the dns tunnel). */
  destination: string;
  dns?: { domain: string; server: string };
  /** The one-time client key of scp and ssh tunnels (from the signed work). */
  sshKey: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** A file name as given (last path segment, no control characters), '' for none. */
const plainName = (v: unknown) => str(v).replace(CONTROL, '').split(/[\\/]/).pop()?.trim().slice(0, 255) ?? '';
/** A name safe as a single file in a folder (ftp/scp). */
const safeFileName = (name: string) => name.replace(/[^\w.-]/g, '_').replace(/^[.-]+/, '') || 'file';
/** An http request path: a leading '/', characters a URL may not carry percent-encoded, a trailing '/' completed with the name. */
function httpPath(asked: string, name: string): string {
  const clean = asked.replace(CONTROL, '').trim();
  if (!clean) return `/${encodeURIComponent(name)}`;
  const rooted = clean.startsWith('/') ? clean : `/${clean}`;
  const encoded = rooted.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c)).replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  return encoded.endsWith('/') ? `${encoded}${encodeURIComponent(name)}` : encoded;
}
/** The ftp or scp file path: the path given (scp: its last segment) or the name. */
function filePath(layer: 'ftp' | 'scp', asked: string, name: string): string {
  const clean = asked.replace(CONTROL, '').trim().replace(/^\/+/, '');
  if (!clean) return safeFileName(name);
  if (layer === 'scp') return safeFileName(clean.split('/').pop() ?? '');
  return clean
    .split('/')
    .filter((seg) => seg && seg !== '.' && seg !== '..')
    .join('/') || safeFileName(name);
}

/** Throws Incompatible unless every address lies inside the tunnel CIDR. */
export function checkCidr(cidr: string, addresses: string[]): void {
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr.trim());
  const prefix = Number(m?.[2]);
  if (!m || !net.isIPv4(m[1] ?? '') || prefix > 32) throw new Incompatible(`The tunnel CIDR "${cidr}" is not an IPv4 CIDR such as 10.0.0.0/8.`);
  const list = new net.BlockList();
  list.addSubnet(m[1] ?? '', prefix, 'ipv4');
  const outside = addresses.filter((a) => !list.check(a, 'ipv4')).sort();
  if (outside.length) throw new Incompatible(`The tunnel CIDR ${cidr.trim()} does not contain ${outside.join(' and ')}, ${outside.length > 1 ? 'addresses' : 'an address'} the tunnel uses.`);
}

function tunnelOf(w: WorkPayload, layer: Plan['layer'], destination: string): Pick<Plan, 'tunnel' | 'dns'> {
  const d = w.details;
  const tunnel = str(d.tunnel_protocol) || 'none';
  if (tunnel === 'none') return { tunnel };
  if (tunnel === 'icmp') throw new Incompatible('file_transfer through an icmp tunnel is not supported by this actor: Node.js cannot open raw ICMP sockets without native code.');
  if (tunnel !== 'ssh' && tunnel !== 'dns') throw new Incompatible(`file_transfer through a ${tunnel} tunnel is not supported by this actor (ssh and dns are).`);
  if (tunnel === 'ssh' && layer === 'scp') throw new Incompatible('The ssh tunnel protocol is not offered with the scp app layer.');
  const used = [w.local_address, w.peer_address ?? ''].filter(Boolean);
  if (tunnel === 'ssh') {
    if (str(d.tunnel_cidr).trim()) checkCidr(str(d.tunnel_cidr), used);
    return { tunnel };
  }
  if (layer === 'scp') throw new Incompatible('The dns tunnel carries http, https or ftp transfers, not scp.');
  const domain = checkDomain(str(d.dns_domain));
  const server = str(d.dns_server_ip).trim() || destination;
  if (server !== destination) {
    const actors = [w.local_address, ...(w.peer_addresses ?? []), w.peer_address ?? ''];
    if (!actors.includes(server)) throw new Incompatible(`The DNS server IP ${server} is not an address of the two actors, and nothing is sent outside them.`);
    throw new Incompatible(`The DNS server IP of a dns tunnel must be the destination actor's address (${destination}): it answers the tunnel's queries.`);
  }
  if (str(d.tunnel_cidr).trim()) checkCidr(str(d.tunnel_cidr), [...new Set([...used, server])]);
  return { tunnel, dns: { domain, server } };
}

export function plan(w: WorkPayload, opts: PerformOptions): Plan {
  const d = w.details;
  const asked = str(d.app_layer) || 'http';
  // An app layer given as a port number (the form's "otherwise the value itself") is http on that port.
  const customPort = /^\d{1,5}$/.test(asked) && Number(asked) >= 1 && Number(asked) <= 65535 ? Number(asked) : null;
  const layer = customPort ? 'http' : asked;
  if (layer !== 'http' && layer !== 'https' && layer !== 'ftp' && layer !== 'scp') throw new Incompatible(`file_transfer over ${layer} is not supported by this actor (http, https, ftp and scp are).`);
  if (layer === 'https' && !opts.tls) throw new Incompatible('This actor has no TLS certificate for https transfers (openssl was not found).');
  const destination = w.role === 'target' ? w.local_address : (w.peer_address ?? '');
  const tunnel = tunnelOf(w, layer, destination);
  const encodings = parseEncodings(str(d.content_encoding));
  const file = w.files?.[0];
  if (!file) throw new Incompatible('file_transfer needs a file from the file library.');
  const method = str(d.method).toUpperCase();
  const chosen = typeof d.target_port === 'number' && d.target_port > 0;
  const name = plainName(d.orig_file_name) || file.name;
  return {
    layer,
    port: chosen ? (d.target_port as number) : (customPort ?? DEFAULT_PORTS[layer] ?? 80),
    method: method === 'POST' || method === 'PUT' ? method : 'GET',
    encodings,
    defaultPort: !chosen,
    file,
    path: layer === 'http' || layer === 'https' ? httpPath(str(d.path), name) : filePath(layer, str(d.path), name),
    name,
    referer: str(d.referer).replace(CONTROL, ' ').trim(),
    ...tunnel,
    destination,
    sshKey: str(d.ssh_key),
  };
}
