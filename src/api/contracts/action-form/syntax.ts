/** Small syntaxes the form and the director both check: port lists, content encodings, addresses, VIDs. */
import { MSG } from './texts';
import { CONTENT_ENCODINGS } from './options';

// Small syntaxes.

/** Port scan ports: comma-delimited ports and hyphen ranges; '#' marks a port expected unreachable. Null when valid. */
export function portsListError(value: string): string | null {
  const v = value.trim();
  if (!v) return MSG.mustBeFilled;
  for (const raw of v.split(',')) {
    const part = raw.trim();
    if (!part) return 'has an empty entry: use a comma-delimited list such as 1,2,3,5-9,11';
    const m = /^(#?)(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return `"${part}" is not a port or range: use a comma-delimited list such as 1,2,3,5-9,11 (a # prefix marks a port expected unreachable)`;
    const lo = Number(m[2]);
    const hi = m[3] === undefined ? lo : Number(m[3]);
    if (lo < 1 || hi > 65535 || lo > 65535) return `"${part}" is outside the port range 1-65535`;
    if (hi < lo) return `"${part}" is a range whose end is before its start`;
  }
  return null;
}

/** Content encoding: zip, gzip, bzip2, tar, rar, 7zip, several comma-separated, without a period. Null when valid. */
export function contentEncodingError(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  if (v.includes('.')) return 'must not contain a period: write zip, not .zip';
  for (const raw of v.split(',')) {
    const part = raw.trim();
    if (!(CONTENT_ENCODINGS as readonly string[]).includes(part)) return `"${part}" is not one of ${CONTENT_ENCODINGS.join(', ')} (separate several with commas)`;
  }
  return null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
export const isIpv4 = (v: string) => IPV4.test(v);
export function isCidr(v: string): boolean {
  const [ip, bits, ...rest] = v.split('/');
  return rest.length === 0 && !!ip && isIpv4(ip) && bits !== undefined && /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
}
const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
export const isHostname = (v: string) => HOSTNAME.test(v);
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const VID_PATTERN = /^A\d{3}-\d{3,}$/;
