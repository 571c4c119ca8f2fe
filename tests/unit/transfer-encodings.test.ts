/** The pure-TypeScript pieces of file_transfer: one-file zip and tar, base32 DNS labels, the tunnel CIDR check. */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tarOne, untarOne, unzipOne, zipOne } from '../../actor/types/archive';
import { base32, bytesPerQuery, unbase32 } from '../../actor/types/dns-tunnel';
import { checkCidr } from '../../actor/types/transfer-plan';
import { parseEncodings } from '../../actor/types/encodings';
import { requirePrograms } from '../../actor/types/sshd';

const data = Buffer.concat([crypto.randomBytes(1500), Buffer.from('text '.repeat(400))]);

describe('archives', () => {
  it('a zip and a tar hold the file and give it back; a damaged one is refused', () => {
    const zip = zipOne('payload.dll', data);
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(zip.length).toBeLessThan(data.length);
    expect(unzipOne(zip, 1 << 20).equals(data)).toBe(true);
    const tar = tarOne('payload.dll', data);
    expect(tar.length % 512).toBe(0);
    expect(tar.subarray(257, 262).toString('latin1')).toBe('ustar');
    expect(untarOne(tar, 1 << 20).equals(data)).toBe(true);
    const badZip = Buffer.from(zip);
    badZip[60] = (badZip[60] ?? 0) ^ 0xff;
    expect(() => unzipOne(badZip, 1 << 20)).toThrow();
    const badTar = Buffer.from(tar);
    badTar[10] = 0x41;
    expect(() => untarOne(badTar, 1 << 20)).toThrow('a tar header fails its checksum');
    expect(() => unzipOne(zip, 100)).toThrow('the zip entry is truncated or too large');
  });
});

describe('dns tunnel labels', () => {
  it('base32 round-trips any bytes in DNS-safe lowercase; a query stays within 253 characters', () => {
    for (const n of [0, 1, 4, 5, 6, 111]) {
      const b = crypto.randomBytes(n);
      const text = base32(b);
      expect(text).toMatch(/^[a-z2-7]*$/);
      expect(unbase32(text).equals(b)).toBe(true);
    }
    const domain = 'exfil.vigil-test.example';
    const per = bytesPerQuery(domain);
    const chars = base32(crypto.randomBytes(per)).length;
    expect(chars + Math.ceil(chars / 63) + `.999999.ffffffff.u.${domain}`.length).toBeLessThanOrEqual(253 + 1);
    expect(per).toBeGreaterThan(100);
  });
});

describe('tunnel CIDR', () => {
  it('addresses inside pass; outside or malformed CIDRs are refused with the reason', () => {
    expect(() => checkCidr('127.0.0.0/30', ['127.0.0.2', '127.0.0.3'])).not.toThrow();
    expect(() => checkCidr('127.0.0.2/32', ['127.0.0.2', '127.0.0.3'])).toThrow('The tunnel CIDR 127.0.0.2/32 does not contain 127.0.0.3, an address the tunnel uses.');
    expect(() => checkCidr('10.0.0.0', ['10.0.0.1'])).toThrow('The tunnel CIDR "10.0.0.0" is not an IPv4 CIDR such as 10.0.0.0/8.');
  });
});

describe('programs', () => {
  it('a missing OpenSSH program makes the transfer incompatible, naming it and the side', () => {
    expect(() => requirePrograms(['ssh', 'vigil-no-such-sshd'], 'destination')).toThrow("OpenSSH's vigil-no-such-sshd is not installed on this actor (needed on the destination side).");
    expect(() => parseEncodings('zip, gzip')).not.toThrow();
  });
});
