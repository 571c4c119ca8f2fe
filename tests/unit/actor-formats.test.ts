// @vitest-environment node
/** The actor's own formats: host_cli condition judging, MIME round trips, DNS records. */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseHostCli } from '@/api/contracts/action-form-host-cli';
import { judge } from '../../actor/types/host-cli';
import { buildMessage, decodeQuotedPrintable, dotStuff, dotUnstuff, encodeQuotedPrintable, readMessage } from '../../actor/types/mime';
import { encodeRdata, renderRdata } from '../../actor/types/dns-wire';

const conditionsOf = (lines: string[]) => {
  const { commands, diagnostics } = parseHostCli(['cmd', '    auto 0 true 10', ...lines.map((l) => `    ${l}`)].join('\n'));
  expect(diagnostics).toEqual([]);
  return commands[0]!;
};

describe('host_cli conditions', () => {
  it('the first matching condition decides, in line order', () => {
    const c = conditionsOf(['blocked_match denied', 'success_zero', 'error_nonzero']);
    expect(judge(c, 'Access denied', 0)).toEqual({ verdict: 'blocked', matched: 'blocked_match denied' });
    expect(judge(c, 'ok', 0)).toEqual({ verdict: 'passed', matched: 'success_zero' });
    expect(judge(c, 'ok', 2)).toEqual({ verdict: 'errored', matched: 'error_nonzero' });
  });

  it('unmet success conditions block; no conditions pass; incompatible conditions are reported', () => {
    expect(judge(conditionsOf(['success_match ^done$']), 'not done', 0).verdict).toBe('blocked');
    expect(judge(conditionsOf([]), 'anything', 7)).toEqual({ verdict: 'passed', matched: null });
    expect(judge(conditionsOf(['incompatible_match not found']), 'bash: x: command not found', 127).verdict).toBe('incompatible');
    expect(judge(conditionsOf(['blocked_nonzero']), '', 1).verdict).toBe('blocked');
  });
});

describe('MIME', () => {
  it('quoted-printable round-trips any bytes within 76-character lines', () => {
    const data = crypto.randomBytes(2000);
    const text = encodeQuotedPrintable(data);
    expect(text.split('\r\n').every((l) => l.length <= 76)).toBe(true);
    expect(decodeQuotedPrintable(text).equals(data)).toBe(true);
  });

  it('a built message reads back with its subject and each attachment intact, through dot-stuffing', () => {
    const files = [
      { name: 'a.bin', data: crypto.randomBytes(500), encoding: 'base64' },
      { name: 'b.txt', data: Buffer.from('.dot\r\n..two\r\nend'), encoding: '7bit' },
      { name: 'c.bin', data: crypto.randomBytes(300), encoding: 'quoted-printable' },
    ];
    const msg = buildMessage({ from: 'a@x', to: 'b@y', subject: 'Rechnung für Sie', body: 'hi', mime: 'text/plain', attachments: files });
    const got = readMessage(dotUnstuff(dotStuff(msg)));
    expect(got.subject).toBe('Rechnung für Sie');
    expect(got.attachments.map((a) => a.sha256)).toEqual(files.map((f) => crypto.createHash('sha256').update(f.data).digest('hex')));
  });
});

describe('DNS records', () => {
  it('encodes the record types and renders them back', () => {
    // type: value as written, value as shown (AAAA shown without zero compression)
    const cases = {
      A: '10.1.2.3',
      AAAA: '2001:db8::1 => 2001:db8:0:0:0:0:0:1',
      TXT: 'v=spf1 -all',
      MX: '5 mx.example.com',
      SRV: '0 5 5060 sip.example.com',
      CNAME: 'cdn.example.net',
    };
    for (const [type, text] of Object.entries(cases)) {
      const [value = '', shown = value] = text.split(' => ');
      const data = encodeRdata(type, value);
      expect(renderRdata(type, data, data, 0), type).toBe(shown);
    }
    expect(() => encodeRdata('A', 'example.com')).toThrow('"example.com" is not an IPv4 address');
  });
});
