import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { newActionBody, type MonitorActionBody, type MonitorEditorOptions, type MonitorGroupBody } from '@/api/contracts/monitors';
import { ActionPanel } from './action-panel';
import type { FlatStep } from './editor-state';
import { GroupPanel, type SessionTicks } from './group-panel';
import { useState } from 'react';
import type { ActionInfo } from '@/api/contracts/monitors';
import type { RunAsMode } from '@/api/contracts/run-as-selection';
import { StepStrip } from './step-strip';
import { MonitorSummary, type SummaryEntry } from './summary';

const OPTIONS: MonitorEditorOptions = {
  nodes: [
    { id: 1, name: 'dmz-web', node_type: 'endpoint', os_base: 'linux', status: 'online', zone_id: 1, node_version: '4.12.0', sandbox_node_id: null, user_tags: [] },
    { id: 2, name: 'core-db', node_type: 'endpoint', os_base: 'windows', status: 'online', zone_id: 2, node_version: '4.12.0', sandbox_node_id: null, user_tags: [] },
  ],
  zones: [{ id: 1, name: 'DMZ', node_count: 1 }],
  email_profiles: [
    { id: 5, name: 'IMAP box', kind: 'imap', address: 'a@lab', associated_node_ids: [] },
    { id: 6, name: 'Graph sender', kind: 'graph_api', address: 'b@lab', associated_node_ids: [] },
  ],
  action_user_profiles: [{ id: 9, friendly_name: 'Ops', username: 'ops' }],
  groups: [],
};

const group: Omit<MonitorGroupBody, 'actions'> = {
  name: 'Across the firewall',
  run_between: 'node',
  attack_node: 1,
  attack_zone: null,
  target_node: 2,
  target_zone: null,
  from_email_profile: 5,
  to_email_profile: null,
  scan_interfaces: ['eth1'],
  proxy_comm: false,
  use_ip_addresses: false,
  action_user_profile: null,
  interactive_desktop_session: false,
  require_interactive: false,
};

describe('the monitor editor panels', () => {
  it('MON-011 MON-034 MON-078 the group panel is titled Group N: name, holds actors, email profiles, interfaces, proxy, addresses and run-as; another email profile clears the chosen actor', async () => {
    const onChange = vi.fn();
    render(<GroupPanel index={1} group={group} options={OPTIONS} errors={{}} onChange={onChange} />);
    const panel = screen.getByRole('region', { name: 'Group 2: Across the firewall' });
    expect(within(panel).getByRole('heading').textContent).toBe('Group 2: Across the firewall');
    for (const label of ['Source Actor', 'Destination Actor', 'From Email Profile', 'To Email Profile', 'Scan Interfaces (comma separated)', 'Run As']) expect(within(panel).getByLabelText(label)).toBeTruthy();
    for (const label of ['Proxy communication', 'Use IPs instead of FQDN', 'Interactive Session']) expect(within(panel).getByRole('checkbox', { name: label })).toBeTruthy();
    // Run-as profiles by friendly name and user name; empty means Run as System.
    expect(within(within(panel).getByLabelText('Run As')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Run as System', 'Ops (ops)']);
    await userEvent.selectOptions(within(panel).getByLabelText('From Email Profile'), '6');
    expect(onChange).toHaveBeenLastCalledWith({ from_email_profile: 6, attack_node: null, attack_zone: null });
    await userEvent.selectOptions(within(panel).getByLabelText('To Email Profile'), '5');
    expect(onChange).toHaveBeenLastCalledWith({ to_email_profile: 5, target_node: null, target_zone: null });
  });

  const actionPanel = (type: string, action: Partial<MonitorActionBody> = {}, senderKind: MonitorEditorOptions['email_profiles'][number]['kind'] | null = null) => {
    const onChange = vi.fn();
    const { unmount } = render(
      <QueryClientProvider client={new QueryClient()}>
        <ActionPanel
          path="steps[0].actions[0]"
          action={{ ...newActionBody(3), ...action }}
          info={{ name: `A ${type} action`, action_type: type, vid: 'A100-1', require_protected: false }}
          senderKind={senderKind}
          errors={{}}
          onChange={onChange}
        />
      </QueryClientProvider>,
    );
    return { onChange, unmount, panel: screen.getByRole('region', { name: `Action: A ${type} action` }) };
  };
  const openRuntime = async (panel: HTMLElement) => {
    const toggle = within(panel).getByRole('button', { name: 'Runtime Parameters' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    return toggle;
  };
  const labels = (panel: HTMLElement) => within(panel).getAllByRole('textbox').map((t) => t.closest('label')?.querySelector('span')?.textContent);

  it('MON-012 MON-035 MON-036 MON-079 MON-081 Action: name, expectations, Runtime Parameters collapsed at first; email has the spoofed From address, blanked and disabled with a hosted mail API sender', async () => {
    const first = actionPanel('email', { runtime: { runtime_from_address: 'ceo@lab' } }, 'imap');
    expect(within(first.panel).getByRole('heading').textContent).toMatch(/^Action: A email action/);
    expect(within(first.panel).getByLabelText('Expected Blocked')).toBeTruthy();
    expect(within(first.panel).getByLabelText('Expected Detected')).toBeTruthy();
    expect(within(first.panel).queryByLabelText('Spoofed From Address')).toBeNull();
    const toggle = await openRuntime(first.panel);
    const from = within(first.panel).getByLabelText('Spoofed From Address') as HTMLInputElement;
    expect([from.value, from.disabled]).toEqual(['ceo@lab', false]);
    // MON-081: the runtime section collapses again.
    await userEvent.click(toggle);
    expect(within(first.panel).queryByLabelText('Spoofed From Address')).toBeNull();
    first.unmount();
    const hosted = actionPanel('email', { runtime: { runtime_from_address: 'ceo@lab' } }, 'graph_api');
    await openRuntime(hosted.panel);
    const blank = within(hosted.panel).getByLabelText('Spoofed From Address') as HTMLInputElement;
    expect([blank.value, blank.disabled]).toEqual(['', true]);
  });

  it('MON-037 MON-038 MON-039 dns, file_transfer and pcap show their runtime fields; pcap has three checkboxes; any other type gets the generic panel', async () => {
    const dns = actionPanel('dns');
    await openRuntime(dns.panel);
    expect(labels(dns.panel)).toEqual(['Temporary Dns Server']);
    dns.unmount();
    const ft = actionPanel('file_transfer');
    await openRuntime(ft.panel);
    expect(labels(ft.panel)).toEqual(['Content Encoding', 'User Agent', 'Dns Domain', 'Orig File Name', 'Path', 'Referer', 'Target Port']);
    ft.unmount();
    const pcap = actionPanel('pcap');
    await openRuntime(pcap.panel);
    expect(labels(pcap.panel)).toEqual(['Target Port', 'Destination Ip']);
    expect(within(pcap.panel).getAllByRole('checkbox').map((c) => c.closest('label')?.textContent?.trim())).toEqual(['Use Https Connection', 'Host Header Update', 'Clear Accept Encoding']);
    await userEvent.click(within(pcap.panel).getByRole('checkbox', { name: 'Use Https Connection' }));
    expect(pcap.onChange).toHaveBeenLastCalledWith({ runtime: { runtime_use_https_connection: true } });
    pcap.unmount();
    const other = actionPanel('website');
    await openRuntime(other.panel);
    await userEvent.type(within(other.panel).getByRole('textbox', { name: 'New runtime parameter' }), 'server_port');
    await userEvent.click(within(other.panel).getByRole('button', { name: 'Add parameter' }));
    expect(other.onChange).toHaveBeenLastCalledWith({ runtime: { runtime_server_port: '' } });
    other.unmount();
    const scan = actionPanel('port_scan');
    for (const label of ['Scanned Ports', 'Expected Open Ports', 'Expected Closed Ports']) expect(within(scan.panel).getByLabelText(label)).toBeTruthy();
  });

  const step = (index: number, group: number, action: number, groupStart: boolean, groupEnd: boolean): FlatStep => ({ index, group, action, name: `Action ${index + 1}`, groupStart, groupEnd });
  const STEPS = [step(0, 0, 0, true, false), step(1, 0, 1, false, true), step(2, 1, 0, true, true)];

  it('MON-013 MON-081 MON-082 MON-157 the summary skips the bookends, starts a group at each group start, expanded at first; click jumps, hover focuses; error and failed styles; the timeout line', async () => {
    const entries: SummaryEntry[] = [
      { step: null, hasError: false, failed: false },
      { step: STEPS[0]!, hasError: true, failed: false },
      { step: STEPS[1]!, hasError: false, failed: false },
      { step: STEPS[2]!, hasError: false, failed: true },
      { step: null, hasError: false, failed: false },
    ];
    const onJump = vi.fn();
    const onHover = vi.fn();
    render(<MonitorSummary entries={entries} timeoutSeconds={45} groupNames={['Recon', 'Lateral']} selectedEvents={[{ step: 3, action: 'Action 3', description: 'ET SCAN', message: '' }]} onJump={onJump} onHover={onHover} />);
    const summary = screen.getByRole('region', { name: 'Monitor summary' });
    const groups = within(summary).getAllByRole('button', { expanded: true });
    expect(groups.map((g) => g.textContent)).toEqual(['▾ Group 1: Recon', '▾ Group 2: Lateral']);
    const items = within(summary).getAllByRole('button', { name: /Action \d$/ });
    expect(items.map((b) => b.textContent)).toEqual(['1Action 1', '2Action 2', '3Action 3']);
    expect(items.map((b) => b.getAttribute('data-state'))).toEqual(['has-error', '', 'failed']);
    await userEvent.click(items[1]!);
    expect(onJump).toHaveBeenCalledWith(1);
    fireEvent.mouseEnter(items[2]!);
    expect(onHover).toHaveBeenCalledWith(2);
    await userEvent.click(groups[0]!);
    expect(groups[0]!.getAttribute('aria-expanded')).toBe('false');
    expect(within(summary).getAllByRole('button', { name: /Action \d$/ })).toHaveLength(1);
    expect(within(summary).getByRole('table', { name: 'Selected events' }).textContent).toContain('ET SCAN');
    expect(summary.textContent).toContain('Timeout for Monitor Event Detection 45 seconds');
    expect(summary.textContent).toContain('Detection timing may be changed under Advanced Settings.');
  });

  it('MON-010 MON-157 the strip: 68 px markers, as many per row as the width holds, end caps, group and state classes; arrows move a row at a time, Enter opens', async () => {
    const many = Array.from({ length: 14 }, (_, i) => step(i, i < 12 ? 0 : 1, i < 12 ? i : i - 12, i === 0 || i === 12, i === 11 || i === 13));
    const onOpen = vi.fn();
    render(<StepStrip steps={many} active={0} focusTo={null} onOpen={onOpen} state={(s) => ({ hasError: s.index === 3, failed: s.index === 13 })} />);
    const strip = screen.getByRole('listbox', { name: 'Steps' });
    // jsdom has no layout: the strip's 800 px default width holds floor(800 / 68) = 11 markers per row.
    expect(strip.getAttribute('data-per-row')).toBe('11');
    const markers = within(strip).getAllByRole('option');
    expect(markers).toHaveLength(14);
    expect(markers[0]!.style.width).toBe('68px');
    expect(markers[0]!.getAttribute('title')).toBe('Step 1: Action 1');
    expect(markers[0]!.getAttribute('data-state')).toBe('step-marker end-cap active focused in-active-group group-start');
    expect(markers[11]!.getAttribute('data-state')).toBe('step-marker end-cap in-active-group group-end');
    expect(markers[3]!.getAttribute('data-state')).toContain('has-error');
    expect(markers[13]!.getAttribute('data-state')).toBe('step-marker group-end failed');
    strip.focus();
    await userEvent.keyboard('{ArrowDown}{ArrowRight}{Enter}');
    expect(onOpen).toHaveBeenCalledWith(12);
  });
});

const RUN_AS_OPTIONS: MonitorEditorOptions = {
  ...OPTIONS,
  nodes: [
    { id: 11, name: 'win-old', node_type: 'endpoint', os_base: 'windows', status: 'online', zone_id: 3, node_version: '4.9.2', sandbox_node_id: null, user_tags: [] },
    { id: 12, name: 'win-ws', node_type: 'endpoint', os_base: 'windows', status: 'online', zone_id: 3, node_version: '4.12.1', sandbox_node_id: null, user_tags: [] },
    { id: 13, name: 'win-protected', node_type: 'protected', os_base: 'windows', status: 'online', zone_id: 4, node_version: '4.12.1', sandbox_node_id: 14, user_tags: [] },
    { id: 14, name: 'sandbox', node_type: 'protected', os_base: 'windows', status: 'online', zone_id: 4, node_version: '4.12.1', sandbox_node_id: 13, user_tags: [] },
    { id: 15, name: 'linux-box', node_type: 'endpoint', os_base: 'linux', status: 'online', zone_id: 3, node_version: '4.12.1', sandbox_node_id: null, user_tags: [] },
  ],
  zones: [
    { id: 3, name: 'Workstations', node_count: 3 },
    { id: 4, name: 'Theater', node_count: 2 },
  ],
};

/** A group panel that keeps its group and ticks, as the editor does. */
function RunAsHarness({ types, protectedAction = false, start }: { types: string[]; protectedAction?: boolean; start: Partial<Omit<MonitorGroupBody, 'actions'>> }) {
  const [g, setG] = useState<Omit<MonitorGroupBody, 'actions'>>({ ...group, from_email_profile: null, attack_node: null, target_node: null, ...start });
  const [ticks, setTicks] = useState<SessionTicks>({});
  const actions: ActionInfo[] = types.map((t, i) => ({ name: `A${i}`, action_type: t, vid: `A${i}`, require_protected: protectedAction }));
  return (
    <GroupPanel
      index={0}
      group={g}
      actions={actions}
      ticks={ticks}
      options={RUN_AS_OPTIONS}
      errors={{}}
      onChange={(p) => setG((x) => ({ ...x, ...p }))}
      onTick={(mode: RunAsMode, checked: boolean) => setTicks((t) => ({ ...t, [mode]: checked }))}
    />
  );
}

describe('the group panel run-as selection', () => {
  const runAs = () => screen.getByLabelText<HTMLSelectElement>('Run As');
  const session = () => screen.queryByRole<HTMLInputElement>('checkbox', { name: 'Interactive Session' });

  it('MON-103 MON-104 the Run As select is enabled only for a valid Windows actor (4.10.0+, endpoint or protected); never for cloud and email; always for host_cli', async () => {
    const { unmount } = render(<RunAsHarness types={['dns']} start={{ attack_node: 11 }} />);
    expect(runAs().disabled).toBe(true);
    await userEvent.selectOptions(screen.getByLabelText('Source Actor'), '15');
    expect(runAs().disabled).toBe(true);
    await userEvent.selectOptions(screen.getByLabelText('Source Actor'), '12');
    expect(runAs().disabled).toBe(false);
    await userEvent.selectOptions(runAs(), '9');
    // Back to an actor that cannot run as a user: the select is disabled and emptied (Run as System).
    await userEvent.selectOptions(screen.getByLabelText('Source Actor'), '11');
    expect(runAs().disabled).toBe(true);
    expect(runAs().value).toBe('');
    unmount();
    for (const t of ['cloud', 'email']) {
      const r = render(<RunAsHarness types={[t]} start={{ attack_node: 12 }} />);
      expect(runAs().disabled, t).toBe(true);
      r.unmount();
    }
    render(<RunAsHarness types={['host_cli']} start={{ attack_node: 15 }} />);
    expect(runAs().disabled).toBe(false);
  });

  it('MON-105 MON-106 the session is hidden for host_cli; disabled without a Windows actor for the listed types, and for host_cli with a profile and no sandbox', async () => {
    const { unmount } = render(<RunAsHarness types={['host_cli']} start={{ attack_node: 12 }} />);
    expect(session()).toBeNull();
    unmount();
    const r = render(<RunAsHarness types={['port_scan']} start={{ attack_node: 15 }} />);
    expect(session()!.disabled).toBe(true);
    await userEvent.selectOptions(screen.getByLabelText('Source Actor'), '12');
    expect(session()!.disabled).toBe(false);
    r.unmount();
    render(<RunAsHarness types={['host_cli', 'sleep']} start={{ attack_node: 12 }} />);
    expect(session()!.disabled).toBe(false);
    await userEvent.selectOptions(runAs(), '9');
    expect(session()!.disabled).toBe(true);
  });

  it('MON-064 MON-066 choosing a profile recomputes the session; the user tick is remembered per mode (actors, zones)', async () => {
    render(<RunAsHarness types={['host_cli', 'sleep']} start={{ attack_node: 12 }} />);
    await userEvent.click(session()!);
    expect(session()!.checked).toBe(true);
    await userEvent.selectOptions(runAs(), '9');
    expect([session()!.checked, session()!.disabled]).toEqual([false, true]);
    await userEvent.selectOptions(runAs(), '');
    expect([session()!.checked, session()!.disabled]).toEqual([true, false]);
    // Zone mode has its own tick (none yet), actor mode keeps its own.
    await userEvent.click(screen.getByRole('radio', { name: 'Zones' }));
    await userEvent.selectOptions(screen.getByLabelText('Source Zone'), '3');
    expect(session()!.checked).toBe(false);
    await userEvent.click(screen.getByRole('radio', { name: 'Actors' }));
    expect(session()!.checked).toBe(true);
  });

  it('MON-065 MON-067 the session is forced checked and disabled for a protected action on valid sandboxed actors; required starts it checked', async () => {
    const { unmount } = render(<RunAsHarness types={['dns']} protectedAction start={{ attack_node: 13 }} />);
    expect([session()!.checked, session()!.disabled]).toEqual([true, true]);
    // A zone where one actor has no sandbox: not forced.
    await userEvent.click(screen.getByRole('radio', { name: 'Zones' }));
    await userEvent.selectOptions(screen.getByLabelText('Source Zone'), '3');
    expect(session()!.disabled).toBe(false);
    await userEvent.selectOptions(screen.getByLabelText('Source Zone'), '4');
    expect([session()!.checked, session()!.disabled]).toEqual([true, true]);
    unmount();
    render(<RunAsHarness types={['dns']} start={{ attack_node: 12, require_interactive: true }} />);
    expect([session()!.checked, session()!.disabled]).toEqual([true, true]);
  });
});
