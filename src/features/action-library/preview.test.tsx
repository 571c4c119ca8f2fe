import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { PreviewCommon, PreviewDetail, PreviewProps } from '@/api/contracts/library';
import { PreviewContent } from './preview-content';
import { PreviewModalHost } from './preview';
import { libraryStore } from './store';

const server = useMswServer();

// CodeMirror measures text ranges; jsdom lays nothing out, so ranges report no rectangles.
const emptyRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= emptyRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

const common: PreviewCommon = {
  id: 7,
  vid: 'A201-807',
  sim_name: 'Host CLI - LSASS Memory Dump with ProcDump',
  description: 'Dumps **lsass**.',
  approved: false,
  version: 2,
  disabled: false,
  decommissioned: false,
  require_protected: false,
  approve_anywhere: false,
  monitor_connections: false,
  vendor: false,
  timeout_ms: 60000,
  date_created: '2026-01-01T00:00:00.000Z',
  date_modified: '2026-02-01T00:00:00.000Z',
  event_filter_rules: [],
  detection_alerts: [{ source: 'ET Open', message: 'ET POLICY Suspicious', source_identifier: '2018959' }],
  simulations: [{ id: 3, vid: 'S100-1', name: 'Credential Theft', created_at: '2026-01-02T00:00:00.000Z', simulation_type: 'sequence' }],
  verodin_signatures: [{ id: 1, text: 'alert tcp any any -> any any (msg:"x"; sid:1;)' }],
  files: [],
  pending_files: 0,
  malicious_files: 0,
  eligible_for_approval: true,
  ineligible_reason: null,
  userPermissions: { approve: true, endpointApproval: true, cloudApproval: true },
};

const make = (detail: PreviewDetail, over: Partial<PreviewCommon> = {}): PreviewProps => ({ ...common, ...over, ...detail }) as PreviewProps;

const hostCli: PreviewDetail = {
  action_type: 'host_cli',
  detail: {
    commands: { shell_type: 'cmd', commands: [{ command: 'whoami', prompt: 'auto', sleep_seconds: 4, check_logs: true, max_timeout_seconds: 60, conditions: ['error_nonzero'] }], cleanup: [], raw_text: 'whoami', cleanup_raw_text: '' },
    files: { file_list: [], automatic_file_cleanup: true, delivery_wait_time: 10, delivery_failed_result: 'blocked', destination_exists_result: 'overwrite' },
    file_cleanup: [
      { filename: 'C:/a.exe', removed: true, result: '' },
      { filename: 'C:/b.exe', removed: false, result: 'The file is in use.' },
    ],
    run_as: null,
  },
};

function renderWithClient(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

afterEach(() => {
  libraryStore.previewId = null;
});

describe('Action Preview', () => {
  it("ACT-007 ACT-009 ACT-118 the modal is titled 'Action Details', shows 'Loading Details', and its panel is the viewport height minus 300px", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.get(`${API}/library/actions.json`, async ({ request }) => {
        expect(new URL(request.url).searchParams.get('id')).toBe('7');
        await gate;
        return HttpResponse.json({ data: { preview_props: make(hostCli) } });
      }),
    );
    renderWithClient(<PreviewModalHost />);
    act(() => {
      libraryStore.previewId = 7;
    });
    expect(await screen.findByRole('heading', { name: 'Action Details' })).toBeTruthy();
    expect(screen.getByText('Loading Details')).toBeTruthy();
    expect(screen.getByTestId('action-preview').style.height).toBe('calc(100vh - 300px)');
    release();
    expect(await screen.findByText('Host CLI - LSASS Memory Dump with ProcDump')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  });

  it("ACT-008 shows 'No preview available for Sleep Actions.' and hides simulations, signatures and alerts for sleep", () => {
    renderWithClient(<PreviewContent p={make({ action_type: 'sleep', detail: {} }, { approved: true })} />);
    expect(screen.getByText('No preview available for Sleep Actions.')).toBeTruthy();
    expect(screen.queryByText('Common Detection Alerts')).toBeNull();
    expect(screen.queryByText('Signatures')).toBeNull();
    expect(screen.queryByText('Sequences and Evaluations')).toBeNull();
    expect(screen.getByText('Event Filter Rules')).toBeTruthy();
  });

  it('ACT-082 shows both endpoint approvals, only the protected one when protected is required, plain Approve for cloud, none once approved or without permission', () => {
    const { unmount } = renderWithClient(<PreviewContent p={make(hostCli)} />);
    const group = () => within(screen.getByRole('group', { name: 'Approval' }));
    expect(group().getByRole('button', { name: 'Approve and Allow Anywhere' })).toBeTruthy();
    expect(group().getByRole('button', { name: 'Approve and Require Protected Theater' })).toBeTruthy();
    expect(group().getByRole('button', { name: 'Reject' })).toBeTruthy();
    unmount();
    const r2 = renderWithClient(<PreviewContent p={make(hostCli, { require_protected: true })} />);
    expect(group().queryByRole('button', { name: 'Approve and Allow Anywhere' })).toBeNull();
    expect(group().getByRole('button', { name: 'Approve and Require Protected Theater' })).toBeTruthy();
    r2.unmount();
    const cloud: PreviewDetail = { action_type: 'cloud', detail: { inputs: [], outputs: [], files: { file_list: [] }, scripts: [], logs: null } };
    const r3 = renderWithClient(<PreviewContent p={make(cloud)} />);
    expect(group().getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(group().queryByRole('button', { name: 'Approve and Allow Anywhere' })).toBeNull();
    r3.unmount();
    const r4 = renderWithClient(<PreviewContent p={make(hostCli, { approved: true })} />);
    expect(screen.queryByRole('group', { name: 'Approval' })).toBeNull();
    r4.unmount();
    renderWithClient(<PreviewContent p={make(hostCli, { userPermissions: { approve: true, endpointApproval: false, cloudApproval: true } })} />);
    expect(screen.queryByRole('group', { name: 'Approval' })).toBeNull();
  });

  it('ACT-061 offers only Edit for a cloud Action with a malicious-restricted file; ACT-057 pending files show a warning and decisions', () => {
    const cloud: PreviewDetail = {
      action_type: 'cloud',
      detail: { inputs: [], outputs: [], files: { file_list: [{ id: 4, orig_file_name: 'bad.ps1', sha256sum: 'a'.repeat(64), file_restrictions: 'restricted_malicious', variable_name: 'x' }] }, scripts: [], logs: null },
    };
    const r = renderWithClient(<PreviewContent p={make(cloud, { malicious_files: 1, eligible_for_approval: false, ineligible_reason: 'x' })} />);
    const group = within(screen.getByRole('group', { name: 'Approval' }));
    expect(group.getByText('This Action is not eligible for approval because it has a file attached that is restricted as malicious.')).toBeTruthy();
    expect(group.getAllByRole('button').map((b) => b.textContent)).toEqual(['Edit']);
    r.unmount();
    const pendingFile = { id: 5, orig_file_name: 'probe.py', sha256sum: 'b'.repeat(64), file_restrictions: 'pending_approval' as const, variable_name: 'p', details: {} };
    renderWithClient(
      <PreviewContent
        p={make({ ...cloud, detail: { ...cloud.detail, files: { file_list: [pendingFile] } } } as PreviewDetail, { files: [pendingFile], pending_files: 1, eligible_for_approval: false, ineligible_reason: 'A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.' })}
      />,
    );
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Approve probe.py as safe' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restrict probe.py as malicious' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove probe.py from the Action' })).toBeTruthy();
    expect(screen.getAllByRole('img', { name: 'Pending Approval' }).length).toBeGreaterThan(0);
  });

  it('ACT-046 ACT-117 a python host_cli shows its script in a read-only code view with tab size 4; other shells list the commands with their conditions', async () => {
    const r = renderWithClient(<PreviewContent p={make(hostCli)} />);
    expect(screen.getByText('whoami')).toBeTruthy();
    expect(screen.getByText(/error_nonzero/)).toBeTruthy();
    expect(screen.queryByLabelText('Python script (read-only)')).toBeNull();
    r.unmount();
    const python: PreviewDetail = { ...hostCli, detail: { ...hostCli.detail, commands: { ...hostCli.detail.commands, shell_type: 'python', raw_text: "print('hi')" } } } as PreviewDetail;
    renderWithClient(<PreviewContent p={make(python)} />);
    const view = await screen.findByLabelText('Python script (read-only)', {}, { timeout: 5000 });
    const content = view.querySelector<HTMLElement>('.cm-content');
    expect(content?.textContent).toBe("print('hi')");
    expect(content?.getAttribute('contenteditable')).toBe('false');
    expect(content?.getAttribute('style')).toContain('tab-size: 4');
  });

  it("ACT-113 labels file cleanup results 'SUCCESSFULLY REMOVED' or 'FAILED TO REMOVE' with the result text", () => {
    renderWithClient(<PreviewContent p={make(hostCli)} />);
    expect(screen.getByText('SUCCESSFULLY REMOVED')).toBeTruthy();
    expect(screen.getByText('FAILED TO REMOVE')).toBeTruthy();
    expect(screen.getByText('The file is in use.')).toBeTruthy();
  });

  it("MON-166 ACT-049 shows '--' for missing web request values and the third ':v:' part of the body", () => {
    renderWithClient(
      <PreviewContent
        p={make({ action_type: 'web_request', detail: { host: 'shop.example', path: '/login', body: 'form:v:urlencoded:v:user=admin', request: { headers: [{ key: 'X-A', value: '' }] }, conditions: [{ code: 403 }] } }, { approved: true })}
      />,
    );
    expect(screen.getByText('user=admin')).toBeTruthy();
    expect(screen.getByText('Profile').nextSibling?.textContent).toBe('--');
    expect(screen.getAllByText('--').length).toBeGreaterThan(3);
  });

  it("MON-165 ACT-112 shows 'Log output unavailable' for cloud logs that are neither a list nor a string", () => {
    const cloud = (logs: unknown): PreviewDetail => ({ action_type: 'cloud', detail: { inputs: [], outputs: [], files: { file_list: [] }, scripts: [{ id: 1, name: 'Setup', script_text: 'print(1)', script_type: 'setup', timeout: 30 }], logs } });
    const r = renderWithClient(<PreviewContent p={make(cloud({ weird: true }), { approved: true })} />);
    expect(screen.getByText('Log output unavailable')).toBeTruthy();
    r.unmount();
    renderWithClient(<PreviewContent p={make(cloud(['Setup: ok', 'Run: AccessDenied']), { approved: true })} />);
    expect(screen.getByLabelText('Logs', { selector: 'pre' }).textContent).toBe('Setup: ok\nRun: AccessDenied');
  });

  it("ACT-044 ACT-010 shows 'Default' for a DNS Action without a server, and PCAP download and preview links", () => {
    const r = renderWithClient(<PreviewContent p={make({ action_type: 'dns', detail: { query_type: 'A', domain: 'evil.example', domain_server: '' } }, { approved: true })} />);
    expect(screen.getByText('Default')).toBeTruthy();
    r.unmount();
    renderWithClient(
      <PreviewContent
        p={make(
          { action_type: 'pcap', detail: { file: { sim_id: 56, name: 'c2.pcap', preview_link: '/manage_sims/pcaps/inspect/9', stored: true }, has_hex: true, has_http_traffic: true, attacker_ip: '10.0.0.1', destination_ip: '10.0.0.2', anonymized_ip: true, anonymized_mac: false } },
          { approved: true },
        )}
      />,
    );
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe('/manage_sims/actions/download/56.pcap');
    expect(download.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: 'Packet View' }).getAttribute('href')).toBe('/manage_sims/pcaps/inspect/9');
  });

  it('ACT-003 links open-ruleset alerts to their rule documentation', () => {
    renderWithClient(<PreviewContent p={make(hostCli, { approved: true })} />);
    expect(screen.getByRole('link', { name: 'ET POLICY Suspicious' }).getAttribute('href')).toBe('https://doc.emergingthreats.net/2018959');
  });
});
