import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { DEMO_USERS, REPO_ROOT } from './director';
import { eventually, pathOf, runCommand, waitForPath } from './workbench';
import { PCAP_TCP_OR_UDP_MESSAGE, type PcapPacketBytesAnswer, type PcapPacketsAnswer } from '../src/api/contracts/pcap';
import type { PickerAction } from '../src/api/contracts/action-form';
import { ETHERTYPE, PROTO, buildPcap, eth, ipv4, udp } from '../server/pcap/testing/builder';

const baseUrl = sharedDirectorUrl();
const fixture = (name: string) => path.join(REPO_ROOT, 'tests', 'fixtures', 'pcap', name);
const toast = (page: Page, text: string | RegExp) => page.locator('[aria-live="polite"]').getByText(text).first();

const api = async <T>(page: Page, p: string): Promise<T> => {
  const res = await page.request.get(p, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status(), `GET ${p}`).toBe(200);
  return (await res.json()) as T;
};

/** The first row of a hex dump as the Packet View shows it: offset, two groups of 8 bytes, ASCII. */
function firstHexRow(bytes: Buffer): { hex: string; ascii: string } {
  const h = (from: number, to: number) => [...bytes.subarray(from, to)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  const ascii = [...bytes.subarray(0, 16)].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('');
  return { hex: `${h(0, 8)}  ${h(8, 16)}`, ascii };
}

/** The Add Action form (opened for pcap), without a leftover draft. */
async function pcapForm(page: Page): Promise<Locator> {
  const f = page.locator('[data-pane-kind="action-new"]');
  await f.getByRole('heading', { name: 'Add Action', level: 2 }).waitFor();
  if (await f.getByRole('button', { name: 'Discard Draft' }).count()) await f.getByRole('button', { name: 'Discard Draft' }).click();
  return f;
}
const gotoDetails = (f: Locator) => f.getByRole('navigation', { name: 'Steps' }).getByRole('button', { name: /Action Details/ }).click();

/** A slow link for the page's uploads (bytes per second; -1 lifts the limit). Returns the setter. */
async function throttleUpload(page: Page, bytesPerSecond: number): Promise<(bps: number) => Promise<unknown>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const set = (bps: number) => cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bps });
  await set(bytesPerSecond);
  return set;
}

describe('PCAP: an Action from a capture, end to end', () => {
  const b = useBrowser(() => baseUrl);

  it('ACT-023 ACT-069 ACT-079 ACT-095 ACT-096 ACT-099 from the palette: create an Action from a TCP+UDP capture, see progress and the TCP-or-UDP message, remove all UDP, save, then read its packets in the Packet View by keyboard', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, inject('demoUserPassword'), '/');
    await runCommand(page, 'Create Action from Capture');
    await waitForPath(page, '/manage_sims/actions/unified_action/new?action_type=pcap');
    const f = await pcapForm(page);
    await f.getByLabel('Name', { exact: true }).click();
    await page.keyboard.press('Control+Alt+Shift+KeyT');
    await toast(page, 'Test values for a pcap Action were filled in.').waitFor();
    const name = `E2E capture ${crypto.randomBytes(3).toString('hex')}`;
    await f.getByLabel('Name', { exact: true }).fill(name);
    await gotoDetails(f);

    // The capture's own addresses: no anonymization.
    for (const label of ['Anonymize IP', 'Anonymize MAC']) {
      const box = f.getByRole('checkbox', { name: label });
      if (await box.isChecked()) await box.uncheck();
    }
    // The command opens the file picker of the focused PCAP form.
    const chooser = page.waitForEvent('filechooser');
    await runCommand(page, 'Upload Capture…');
    await (await chooser).setFiles(fixture('eth-le-usec.pcap'));

    // Progress: the bar and its status text reach 100% once the director has processed the capture.
    const bar = f.getByRole('progressbar', { name: 'Upload progress' });
    await eventually(() => bar.getAttribute('aria-valuenow'), '100', 'the progress bar reaches 100', 30_000);
    await f.getByRole('status').getByText('Completed - 100%').waitFor();

    // Both protocols remain: the spec's message verbatim, and three conversations.
    const table = f.getByRole('table', { name: 'Conversations' });
    const removeButtons = table.getByRole('button', { name: /^Remove conversation/ });
    await f.getByText(PCAP_TCP_OR_UDP_MESSAGE, { exact: true }).waitFor();
    await eventually(() => removeButtons.count(), 3, 'three conversations are listed');
    expect(await table.getByRole('cell', { name: 'UDP', exact: true }).count()).toBe(1);
    expect(await f.getByLabel('Attacker IP').inputValue()).toBe('192.168.10.5');
    expect(await f.getByLabel('Destination IP').inputValue()).toBe('203.0.113.80');

    // Remove all UDP: two TCP conversations remain and the message is gone.
    await f.getByRole('button', { name: 'Remove all UDP' }).click();
    await eventually(() => removeButtons.count(), 2, 'two conversations remain');
    expect(await table.getByRole('cell', { name: 'UDP', exact: true }).count()).toBe(0);
    expect(await table.getByRole('cell', { name: 'TCP', exact: true }).count()).toBe(2);
    expect(await f.getByText(PCAP_TCP_OR_UDP_MESSAGE, { exact: true }).count()).toBe(0);
    const href = (await f.getByRole('link', { name: 'Packet View' }).getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/manage_sims\/pcaps\/inspect\/\d+$/);

    // Save: the PCAP Action exists.
    await page.keyboard.press('Control+s');
    await toast(page, /Action A\d{3}-\d+ was successfully created\./).waitFor({ timeout: 30_000 });
    // The library opens with the saved Action selected.
    await eventually(() => /^\/manage_sims\/action\/A\d{3}-\d+$/.test(pathOf(page)), true, 'the library selects the saved Action');
    let created: PickerAction | undefined;
    await eventually(async () => {
      created = (await api<{ data: PickerAction[] }>(page, '/manage_sims/actions/picker.json')).data.find((a) => a.name === name);
      return created?.action_type;
    }, 'pcap', `the Action "${name}" is listed`);

    // Packet View of its processed capture: the 16 TCP frames only, in a listbox.
    const id = Number(href.split('/').pop());
    await page.goto(href);
    const pane = page.locator('[data-pane-kind="pcap-inspect"]');
    await pane.getByText('16 packets · processed capture (what the Action replays)').waitFor({ timeout: 30_000 });
    const list = pane.getByRole('listbox', { name: 'Packets' });
    const answer = await api<PcapPacketsAnswer>(page, `/manage_sims/pcaps/${id}/packets.json`);
    expect(answer.data.total).toBe(16);
    expect(new Set(answer.data.packets.map((p) => p.protocol))).not.toContain('DNS');
    const first = answer.data.packets[0]!;
    const option1 = list.getByRole('option', { name: `Packet 1: ${first.protocol} ${first.source} to ${first.destination}, ${first.length} bytes, ${first.summary}` });
    await option1.waitFor();
    expect(first.source).toBe('192.168.10.5');
    expect(first.destination).toBe('203.0.113.80');
    expect(await option1.getAttribute('aria-selected')).toBe('true');

    // Keyboard: Arrow Down selects packet 2 and shows its bytes; End goes to the last packet.
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await eventually(() => list.getByRole('option', { name: /^Packet 2: / }).getAttribute('aria-selected'), 'true', 'packet 2 is selected');
    await eventually(() => pathOf(page), `${href}?packet=2`, 'the URL names packet 2');
    const bytes2 = Buffer.from((await api<PcapPacketBytesAnswer>(page, `/manage_sims/pcaps/${id}/packets/2.json`)).data.bytes_base64, 'base64');
    const hex = pane.getByRole('region', { name: 'Bytes of packet 2' }).getByRole('table', { name: 'Hex and ASCII' });
    const row = hex.getByRole('row').first();
    const expected = firstHexRow(bytes2);
    await eventually(() => row.getByRole('cell').allInnerTexts(), ['0000', expected.hex, expected.ascii], 'the hex and ASCII of packet 2');
    expect(await hex.getByRole('row').count()).toBe(Math.ceil(bytes2.length / 16));

    await page.keyboard.press('End');
    await eventually(() => list.getByRole('option', { name: /^Packet 16: / }).getAttribute('aria-selected'), 'true', 'the last packet is selected');
    await pane.getByRole('region', { name: 'Bytes of packet 16' }).waitFor();
    await page.keyboard.press('Home');
    await eventually(() => option1.getAttribute('aria-selected'), 'true', 'Home selects packet 1');
  });

  it('ACT-108 a large file that is not a capture is refused after its first bytes: the flash gives the director\'s reason long before the file could have been sent', async () => {
    const { page } = b;
    // Provoked: the director refuses the upload after its first bytes (400).
    b.allowConsole(/status of 400 \(Bad Request\) \(.*\/manage_sims\/upload\/upload_pcap_file\)$/);
    const big = path.join(os.tmpdir(), `vigil-e2e-not-a-capture-${crypto.randomBytes(3).toString('hex')}.pcap`);
    fs.writeFileSync(big, Buffer.alloc(24 * 1024 * 1024, 0x41));
    try {
      await signIn(page, DEMO_USERS.operator, inject('demoUserPassword'), '/manage_sims/actions/unified_action/new?action_type=pcap');
      const f = await pcapForm(page);
      await gotoDetails(f);
      // A slow link: 2 MB/s, so sending the whole file would take 12 s.
      await throttleUpload(page, 2 * 1024 * 1024);
      const started = Date.now();
      await f.getByLabel('PCAP File').setInputFiles(big);
      await toast(page, /^Warning! Validation errors kept this Action from saving successfully\. The file is not a pcap or pcapng capture: it starts with 41 41 41 41/).waitFor({ timeout: 30_000 });
      const took = Date.now() - started;
      await f.getByRole('status').getByText('Error - 100%').waitFor();
      expect(took, `the refusal came after ${took} ms`).toBeLessThan(8000);
    } finally {
      fs.rmSync(big, { force: true });
    }
  });

  it('ACT-023 ACT-069 ACT-120 a capture with 3,000 conversations: bytes-sent progress while it uploads, then a virtualized table that renders only the rows in view', async () => {
    const { page } = b;
    // Two hosts, 3,000 UDP conversations of one 600-byte datagram each (about 2 MB).
    const packets = Array.from({ length: 3000 }, (_, i) => ({
      ts: [1_700_000_000 + Math.floor(i / 1000), (i % 1000) * 1_000_000] as [number, number],
      data: eth({ type: ETHERTYPE.IPV4, payload: ipv4({ src: '10.1.0.1', dst: '10.1.0.2', proto: PROTO.UDP, payload: udp(20000 + i, 9000, Buffer.alloc(600, 0x61)) }) }),
    }));
    const file = path.join(os.tmpdir(), `vigil-e2e-3000-conversations-${crypto.randomBytes(3).toString('hex')}.pcap`);
    fs.writeFileSync(file, buildPcap(packets, { linkType: 1 }));
    try {
      await signIn(page, DEMO_USERS.operator, inject('demoUserPassword'), '/manage_sims/actions/unified_action/new?action_type=pcap');
      const f = await pcapForm(page);
      await gotoDetails(f);
      const throttle = await throttleUpload(page, 512 * 1024);
      await f.getByLabel('PCAP File').setInputFiles(file);
      // While the file travels: the share already sent.
      const status = f.getByRole('status');
      await eventually(async () => /^Uploading - [1-9]\d?%$/.test(await status.innerText()), true, 'the status shows the upload part way', 30_000);
      await throttle(-1);
      await status.getByText('Completed - 100%').waitFor({ timeout: 60_000 });

      const table = f.getByRole('table', { name: 'Conversations' });
      await eventually(() => table.getAttribute('aria-rowcount'), '3001', 'the 3,000 conversations are listed', 30_000);
      const rendered = table.getByRole('button', { name: /^Remove conversation/ });
      await eventually(async () => (await rendered.count()) > 5, true, 'the first rows are rendered');
      expect(await rendered.count()).toBeLessThan(100);
      await table.getByRole('cell', { name: '20000', exact: true }).waitFor();
      // Scrolled to the end: the last conversation (timestamp ascending) is rendered, the first is not.
      await table.evaluate((el) => {
        const scroller = el.parentElement!;
        scroller.scrollTop = scroller.scrollHeight;
      });
      await table.getByRole('cell', { name: '22999', exact: true }).waitFor();
      expect(await table.getByRole('cell', { name: '20000', exact: true }).count()).toBe(0);
      expect(await rendered.count()).toBeLessThan(100);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});
