import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeBuffer } from '../pcap/analyze';
import { assess } from '../pcap/assess';
import { bufferSource, inspectZip } from '../actions/zip';
import { demoFileContent } from './demo-files';
import { demoCapture } from './demo-traffic';

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('demo captures', () => {
  it('are valid two-address TCP captures between the recorded addresses, the same bytes every time', () => {
    const bytes = demoCapture('trickbot_c2_http.pcap', '10.10.1.104', '198.51.100.44');
    expect(bytes).not.toBeNull();
    expect(sha256(bytes!)).toBe(sha256(demoCapture('trickbot_c2_http.pcap', '10.10.1.104', '198.51.100.44')!));
    const a = assess(analyzeBuffer(bytes!), { anonymizeIp: false, anonymizeMac: false });
    expect(a.flags).toMatchObject({ valid_upload: true, has_two_ips: true, contains_udp: false, layer_2_exists: true });
    expect(a.conversations.map((c) => [c.source_address, c.dest_address, c.protocol, c.dest_port])).toEqual([
      ['10.10.1.104', '198.51.100.44', 'tcp', 447],
      ['10.10.1.104', '198.51.100.44', 'tcp', 449],
    ]);
    expect(a.conversations[1]?.info).toBe('HTTP POST /mor84/DESKTOP-DEMO_W10019041.5A1B2C3D/90 HTTP/1.1 (Host: 198.51.100.44:449)');
  });

  it('has none for a file name the seed does not know', () => {
    expect(demoCapture('unknown.pcap', '10.0.0.1', '10.0.0.2')).toBeNull();
  });
});

describe('demo library files', () => {
  it('a zip is a readable archive of the stand-in text', async () => {
    const entries = await inspectZip(bufferSource(demoFileContent('eicar_com.zip', 'notes')), '', { maxEntries: 10, maxExpandedBytes: 1 << 20, maxRatio: 100 });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ name: 'eicar_com.txt', encrypted: false });
  });

  it('a tar.gz is a gzipped ustar archive holding the stand-in text', () => {
    const tar = zlib.gunzipSync(demoFileContent('s3_exfil_dataset.tar.gz', 'notes'));
    expect(tar.length % 512).toBe(0);
    expect(tar.toString('latin1', 0, 24).replace(/\0+$/, '')).toBe('s3_exfil_dataset.txt');
    expect(tar.toString('latin1', 257, 262)).toBe('ustar');
    const size = parseInt(tar.toString('latin1', 124, 135), 8);
    expect(tar.toString('utf8', 512, 512 + size)).toContain('harmless stand-in for s3_exfil_dataset.tar.gz');
    // The header checksum: the sum of its bytes with the checksum field counted as spaces.
    const header = Buffer.from(tar.subarray(0, 512));
    const stored = parseInt(header.toString('latin1', 148, 154), 8);
    header.fill(0x20, 148, 156);
    expect(header.reduce((s, b) => s + b, 0)).toBe(stored);
  });

  it('scripts only print, and no file carries the EICAR string', () => {
    expect(demoFileContent('linpeas.sh', 'n').toString()).toMatch(/^#!\/bin\/sh\n(# .*\n|#\n)+echo "Vigil demo stand-in for linpeas.sh: nothing to do."\n$/);
    for (const name of ['eicar.com', 'eicar_com.zip', 'mimikatz.exe', 'customer_records_sample.csv']) {
      expect(demoFileContent(name, 'EICAR anti-malware test file.').toString('latin1')).not.toContain('EICAR-STANDARD-ANTIVIRUS-TEST-FILE');
    }
  });
});
