import type { ReactNode } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { FormProvider, useForm } from 'react-hook-form';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../../tests/msw';
import { FORM_LIMITS, type FormDefinition } from '@/api/contracts/action-form';
import {
  PCAP_STATUS,
  PCAP_TCP_OR_UDP_MESSAGE,
  type CheckProcessStatusAnswer,
  type DestroyConversationsAnswer,
  type PcapConversation,
  type PcapUploadFlags,
  type PcapUploadRecord,
  type ShowConversationsAnswer,
} from '@/api/contracts/pcap';
import { Toaster } from '@/ui/toaster';
import { clearToasts, toastStore } from '@/ui/toasts';
import { FormEnvContext, type FormEnv } from '@/features/action-form/form-env';
import { emptyValues, type ActionFormValues } from '@/features/action-form/form-model';
import { paneContexts } from '@/commands/pane-contexts';
import { pcapUploadPane } from '@/features/action-form/pane-context';
import { PcapUploadForm } from './pcap';

// jsdom has no layout, so the real virtualizer renders no rows: list them all here.
vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 28, size: estimateSize(index), end: (index + 1) * 28, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 28 };
  },
}));

const server = useMswServer();

const ENV: FormEnv = {
  def: { limits: FORM_LIMITS, pcap_upload: true } as FormDefinition,
  tags: [],
  mode: 'new',
  canCreate: true,
  canApproveCloud: false,
  brtAuth: false,
  protectedTheater: false,
  knownFiles: {},
  rememberFiles: () => undefined,
};

const conv = (id: number, protocol: 'tcp' | 'udp', port: number): PcapConversation => ({
  id,
  timestamp: `2024-01-01T00:00:0${id}.000000000Z`,
  source_address: '10.0.0.1',
  dest_address: '10.0.0.2',
  protocol,
  service: protocol === 'udp' ? 'domain' : 'http',
  source_port: 40000 + id,
  dest_port: port,
  data_size: 100 * id,
  info: '',
  missed_bytes: 0,
});

const FLAG_NAMES: (keyof PcapUploadFlags)[] = ['valid_upload', 'has_two_ips', 'contains_udp', 'remove_non_ip_info', 'converted', 'stripped_vlan_tags', 'anonymized_ip', 'anonymized_mac', 'layer_2_exists'];
/** Every flag false but the named ones. */
const flags = (...on: (keyof PcapUploadFlags)[]) => Object.fromEntries(FLAG_NAMES.map((n) => [n, on.includes(n)])) as unknown as PcapUploadFlags;

const record = (over: Partial<PcapUploadRecord> = {}): PcapUploadRecord => ({
  id: 7,
  orig_filename: 'c.pcap',
  pcap_library_id: 7,
  ...flags('valid_upload', 'has_two_ips', 'contains_udp', 'layer_2_exists'),
  status: PCAP_STATUS.completed,
  percent_complete: 100,
  notifications: [],
  action_id: null,
  summary: {},
  ...over,
});

let values: () => ActionFormValues = () => emptyValues();
function Harness({ children }: { children: ReactNode }) {
  const form = useForm<ActionFormValues>({ defaultValues: { ...emptyValues(), sim_action: { ...emptyValues().sim_action, action_type: 'pcap' } } });
  values = form.getValues;
  return (
    <FormEnvContext.Provider value={ENV}>
      <FormProvider {...form}>{children}</FormProvider>
    </FormEnvContext.Provider>
  );
}

function renderForm() {
  return render(
    <Harness>
      <PcapUploadForm type="pcap" />
      <Toaster />
    </Harness>,
  );
}

const choose = () => fireEvent.change(screen.getByLabelText('PCAP File'), { target: { files: [new File([new Uint8Array([0xd4, 0xc3, 0xb2, 0xa1])], 'c.pcap')] } });
const statusText = () => screen.getByRole('status').textContent;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  server.use(http.post(`${API}/manage_sims/upload/upload_pcap_file`, () => HttpResponse.json({ data: { upload_id: 7 } })));
});
afterEach(() => {
  vi.useRealTimers();
  clearToasts();
});

/** Lets the pending requests and renders settle without moving the clock. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('the PCAP upload form', () => {
  it('ACT-069 ACT-116 polls check_process_status every 2 s until 100%, then lists the conversations', async () => {
    const steps: CheckProcessStatusAnswer['data'][] = [
      { percent_complete: 40, status: PCAP_STATUS.processing, upload_id: 7 },
      { percent_complete: 99, status: PCAP_STATUS.processing, upload_id: 7 },
      { percent_complete: 100, status: PCAP_STATUS.completed, upload_id: 7 },
    ];
    const polledAt: number[] = [];
    server.use(
      http.get(`${API}/manage_sims/upload/check_process_status/7`, () => {
        polledAt.push(Date.now());
        return HttpResponse.json({ data: steps[Math.min(polledAt.length - 1, steps.length - 1)]! });
      }),
      http.get(`${API}/manage_sims/upload/show_conversations/7.json`, () => HttpResponse.json({ data: { upload: record(), conversations: [conv(1, 'tcp', 80), conv(2, 'tcp', 443)] }, token: 't' } satisfies ShowConversationsAnswer)),
    );
    renderForm();
    choose();
    await settle();
    const answeredAt = Date.now();
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(polledAt).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(polledAt).toHaveLength(1);
    expect(statusText()).toBe('Processing - 40%');
    expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('40');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(polledAt).toHaveLength(2);
    expect(statusText()).toBe('Processing - 99%');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(polledAt.map((t) => t - answeredAt)).toEqual([2000, 4000, 6000]);
    expect(statusText()).toBe('Completed - 100%');
    expect(within(screen.getByRole('table', { name: 'Conversations' })).getAllByRole('button', { name: /^Remove conversation/ })).toHaveLength(2);
    // Polling stopped at 100%; the first conversation set the addresses and the upload id.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(polledAt).toHaveLength(3);
    expect(values().pcap_action.upload).toBe(7);
    expect(values().pcap_action.attacker_ip).toBe('10.0.0.1');
    expect(values().pcap_action.destination_ip).toBe('10.0.0.2');
  });

  it('ACT-108 an Error status shows red Error - 100%, flashes the status and lists the notifications', async () => {
    server.use(
      http.get(`${API}/manage_sims/upload/check_process_status/7`, () => HttpResponse.json({ data: { percent_complete: 100, status: PCAP_STATUS.tooManyIps, upload_id: 7 } })),
      http.get(`${API}/manage_sims/upload/show_conversations/7.json`, () =>
        HttpResponse.json({
          data: { upload: record({ status: PCAP_STATUS.tooManyIps, notifications: [{ level: 'error', message: 'The conversations involve 3 unique IP addresses (a, b, c).' }] }), conversations: [] },
          token: 't',
        }),
      ),
    );
    renderForm();
    choose();
    await settle();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await settle();
    expect(statusText()).toBe('Error - 100%');
    expect(screen.getByRole('status').className).toContain('text-red-500');
    expect(screen.getByText(`Warning! Validation errors kept this Action from saving successfully. ${PCAP_STATUS.tooManyIps} Please see below.`)).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Notifications' })).getByText('The conversations involve 3 unique IP addresses (a, b, c).')).toBeTruthy();
    expect(values().pcap_action.upload).toBeNull();
  });

  it('ACT-079 ACT-099 both protocols show the TCP-or-UDP message; Remove all UDP posts remove_tcp_or_udp and lists what remains', async () => {
    let posted: unknown = null;
    const both = [conv(1, 'tcp', 80), conv(2, 'udp', 53), conv(3, 'udp', 53)];
    server.use(
      http.get(`${API}/manage_sims/upload/check_process_status/7`, () => HttpResponse.json({ data: { percent_complete: 100, status: PCAP_STATUS.completed, upload_id: 7 } })),
      http.get(`${API}/manage_sims/upload/show_conversations/7.json`, () =>
        HttpResponse.json({ data: { upload: record({ notifications: [{ level: 'warning', message: PCAP_TCP_OR_UDP_MESSAGE }] }), conversations: both }, token: 't' }),
      ),
      http.post(`${API}/manage_sims/upload/destroy_conversations`, async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ data: { conversations: [both[0]!], upload: record({ contains_udp: false }) } } satisfies DestroyConversationsAnswer);
      }),
    );
    renderForm();
    choose();
    await settle();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await settle();
    expect(screen.getByText(PCAP_TCP_OR_UDP_MESSAGE)).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Conversations' });
    expect(within(table).getAllByRole('cell', { name: 'UDP' })).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove all UDP' }));
    await settle();
    expect(posted).toEqual({ upload_id: 7, action_type: 'pcap', remove_tcp_or_udp: 'udp' });
    expect(within(table).queryAllByRole('cell', { name: 'UDP' })).toHaveLength(0);
    expect(within(table).getAllByRole('cell', { name: 'TCP' })).toHaveLength(1);
    expect(screen.queryByText(PCAP_TCP_OR_UDP_MESSAGE)).toBeNull();
    // One protocol left: no Remove all buttons; the last conversation cannot be removed.
    expect(screen.queryByRole('button', { name: /^Remove all/ })).toBeNull();
    expect((within(table).getByRole('button', { name: 'Remove conversation 1' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('ACT-114 a refused Remove all UDP shows the director\'s text as an alert and keeps the conversations', async () => {
    const both = [conv(1, 'tcp', 80), conv(2, 'udp', 53)];
    server.use(
      http.get(`${API}/manage_sims/upload/check_process_status/7`, () => HttpResponse.json({ data: { percent_complete: 100, status: PCAP_STATUS.completed, upload_id: 7 } })),
      http.get(`${API}/manage_sims/upload/show_conversations/7.json`, () => HttpResponse.json({ data: { upload: record(), conversations: both }, token: 't' })),
      http.post(`${API}/manage_sims/upload/destroy_conversations`, () => HttpResponse.json({ error: 'The upload is being processed; try again shortly.' }, { status: 409 })),
    );
    renderForm();
    choose();
    await settle();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Remove all UDP' }));
    await settle();
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toContainEqual(['error', 'The upload is being processed; try again shortly.']);
    expect(screen.getByText('The upload is being processed; try again shortly.')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Conversations' });
    expect(within(table).getAllByRole('cell', { name: 'UDP' })).toHaveLength(1);
  });

  it('registers its file picker for the Upload Capture… command while mounted', () => {
    const view = renderForm();
    const input = screen.getByLabelText('PCAP File') as HTMLInputElement;
    const clicked = vi.fn();
    input.addEventListener('click', clicked);
    const picker = () => paneContexts.lookup(pcapUploadPane, null)?.openPicker;
    expect(picker()).toBeTruthy();
    picker()!();
    expect(clicked).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(picker()).toBeUndefined();
  });
});
