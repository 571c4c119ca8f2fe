/**
 * Step 2 for pcap and captive_ioc_pcap. A new Action is made from an uploaded capture (the PCAP upload
 * calls of the director): choosing a file starts the upload, the status is polled every 2 seconds, and
 * the conversations are listed once it completes; conversations can be removed one by one or by protocol.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import {
  PCAP_CONVERSATION_COLUMNS,
  PCAP_STATUS_POLL_MS,
  PCAP_UPLOAD_ERROR_FLASH_PREFIX,
  PCAP_UPLOAD_ERROR_FLASH_SUFFIX,
  isPcapErrorStatus,
  type CheckProcessStatusAnswer,
  type DestroyConversationsAnswer,
  type PcapConversation,
  type PcapUploadRecord,
  type ShowConversationsAnswer,
  type UploadPcapAnswer,
} from '../../../api/contracts/pcap';
import { ApiError, http } from '../../../api/http';
import { Button } from '../../../ui/button';
import { flash } from '../../../ui/toasts';
import { tableClass, tdClass, thClass } from '../attachments';
import { CheckboxInput, ErrorText, TextInput, labelClass, useFieldError } from '../controls';
import { useFormEnv } from '../form-env';
import type { ActionFormValues } from '../form-model';

type PcapType = 'pcap' | 'captive_ioc_pcap';
type SortKey = 'timestamp' | 'source_address' | 'dest_address' | 'protocol' | 'service' | 'source_port' | 'dest_port' | 'data_size' | 'info';
const SORT_KEYS: SortKey[] = ['timestamp', 'source_address', 'dest_address', 'protocol', 'service', 'source_port', 'dest_port', 'data_size', 'info'];

export function sortConversations(rows: readonly PcapConversation[], key: SortKey, dir: 'asc' | 'desc'): PcapConversation[] {
  const sorted = [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c || a.id - b.id;
  });
  return dir === 'asc' ? sorted : sorted.reverse();
}

function UploadFlow({ type }: { type: PcapType }) {
  const env = useFormEnv();
  const k = type === 'pcap' ? 'pcap_action' : 'captive_ioc_pcap_action';
  const { setValue, getValues } = useFormContext<ActionFormValues>();
  const [anonIp, anonMac] = useWatch<ActionFormValues, [`${typeof k}.anonymized_ip`, `${typeof k}.anonymized_mac`]>({ name: [`${k}.anonymized_ip`, `${k}.anonymized_mac`] });
  const [percent, setPercent] = useState(0);
  const [status, setStatus] = useState('');
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [upload, setUpload] = useState<PcapUploadRecord | null>(null);
  const [conversations, setConversations] = useState<PcapConversation[]>([]);
  const [sort, setSort] = useState<{ key: SortKey; dir: 'asc' | 'desc' }>({ key: 'timestamp', dir: 'asc' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const uploadId = useRef<number | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  const clearUpload = () => {
    uploadId.current = null;
    setValue(`${k}.upload`, null, { shouldDirty: true });
  };
  const fail = (text: string) => {
    setFailed(true);
    setPercent(100);
    setStatus(text);
    setBusy(false);
    flash('alert', `${PCAP_UPLOAD_ERROR_FLASH_PREFIX}${text} ${PCAP_UPLOAD_ERROR_FLASH_SUFFIX}`);
    clearUpload();
  };
  const applyConversations = (rows: PcapConversation[], rec: PcapUploadRecord) => {
    setConversations(rows);
    setUpload(rec);
    const first = rows[0];
    if (first) {
      setValue(`${k}.attacker_ip`, first.source_address, { shouldDirty: true, shouldValidate: true });
      setValue(`${k}.destination_ip`, first.dest_address, { shouldDirty: true, shouldValidate: true });
    }
  };
  const loadConversations = async (id: number) => {
    const answer = await http.get<ShowConversationsAnswer>(`/manage_sims/upload/show_conversations/${id}.json`, { params: { details: true } });
    if (!answer.data.upload.valid_upload || isPcapErrorStatus(answer.data.upload.status)) return fail(answer.data.upload.status);
    setBusy(false);
    setValue(`${k}.upload`, id, { shouldDirty: true, shouldValidate: true });
    applyConversations(answer.data.conversations, answer.data.upload);
  };
  const poll = (id: number) => {
    timer.current = setTimeout(async () => {
      if (uploadId.current !== id) return;
      try {
        const s = await http.get<CheckProcessStatusAnswer>(`/manage_sims/upload/check_process_status/${id}`, { background: true });
        setPercent(s.data.percent_complete);
        setStatus(s.data.status);
        if (isPcapErrorStatus(s.data.status)) return fail(s.data.status);
        if (s.data.percent_complete >= 100) return void (await loadConversations(id));
        poll(id);
      } catch (e) {
        fail(e instanceof Error ? e.message : String(e));
      }
    }, PCAP_STATUS_POLL_MS);
  };
  const start = async (file: File) => {
    if (timer.current) clearTimeout(timer.current);
    setFailed(false);
    setBusy(true);
    setPercent(0);
    setStatus('Uploading');
    setConversations([]);
    setUpload(null);
    const form = new FormData();
    form.append('anonymized_ip', String(getValues(`${k}.anonymized_ip`)));
    form.append('anonymized_mac', String(getValues(`${k}.anonymized_mac`)));
    form.append('file', file, file.name);
    try {
      const answer = await http.post<UploadPcapAnswer>('/manage_sims/upload/upload_pcap_file', form);
      uploadId.current = answer.data.upload_id;
      poll(answer.data.upload_id);
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
  };
  const destroy = async (body: { conv_id: number[] } | { remove_tcp_or_udp: 'tcp' | 'udp' }) => {
    const id = uploadId.current;
    if (!id) return;
    try {
      const answer = await http.post<DestroyConversationsAnswer>('/manage_sims/upload/destroy_conversations', { upload_id: id, action_type: type, ...body });
      applyConversations(answer.data.conversations, answer.data.upload);
    } catch (e) {
      flash('alert', e instanceof ApiError ? e.message : String(e));
    }
  };

  const rows = useMemo(() => sortConversations(conversations, sort.key, sort.dir), [conversations, sort]);
  const protocols = [...new Set(conversations.map((c) => c.protocol))];
  const ro = !env.canCreate;
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <CheckboxInput name={`${k}.anonymized_ip`} label="Anonymize IP" disabled={ro || busy} />
        <CheckboxInput name={`${k}.anonymized_mac`} label="Anonymize MAC" disabled={ro || busy} />
        <CheckboxInput name={`${k}.bypass_http_check`} label="Bypass HTTP Check" disabled={ro} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="pcap-file" className={labelClass}>
          PCAP File
        </label>
        <input
          id="pcap-file"
          type="file"
          accept=".pcap,.pcapng,.cap"
          disabled={ro || busy}
          className="text-sm"
          data-anonymize={`${anonIp ? 'ip' : ''}${anonMac ? 'mac' : ''}`}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void start(f);
          }}
        />
        <div className="flex items-center gap-2">
          <div className="h-2 flex-1 overflow-hidden rounded bg-raised" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <div className={`h-full ${failed ? 'bg-red-600' : 'bg-accent'}`} style={{ width: `${percent}%` }} />
          </div>
          <span className={`text-xs ${failed ? 'text-red-500' : 'text-muted'}`} role="status">
            {failed ? `Error - 100%` : status ? `${status} - ${percent}%` : ''}
          </span>
        </div>
        {failed && <span className="text-xs text-red-500">{status}</span>}
        {upload?.notifications?.map((n, i) => (
          <span key={i} className={`text-xs ${n.level === 'error' ? 'text-red-500' : n.level === 'warning' ? 'text-amber-600' : 'text-muted'}`}>
            {n.message}
          </span>
        ))}
        <ErrorText id="pcap-upload-error" message={useFieldError(`${k}.upload`)} />
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <TextInput name={`${k}.attacker_ip`} label="Attacker IP" required mono disabled={ro} />
        <TextInput name={`${k}.destination_ip`} label="Destination IP" required mono disabled={ro} />
      </div>
      <div className="flex items-center justify-between">
        <span className={labelClass}>Conversations</span>
        <div className="flex gap-2">
          {upload?.pcap_library_id ? (
            <a href={`/manage_sims/pcaps/inspect/${upload.pcap_library_id}`} target="_blank" rel="noopener" className="text-sm text-accent underline">
              Packet View
            </a>
          ) : null}
          {protocols.length > 1 &&
            protocols.map((p) => (
              <Button key={p} variant="ghost" disabled={ro} onClick={() => void destroy({ remove_tcp_or_udp: p })}>
                Remove all {p.toUpperCase()}
              </Button>
            ))}
        </div>
      </div>
      <table className={tableClass} aria-label="Conversations">
        <thead>
          <tr>
            {PCAP_CONVERSATION_COLUMNS.map((h, i) => {
              const key = SORT_KEYS[i]!;
              return (
                <th key={h} className={thClass} aria-sort={sort.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  <button type="button" className="uppercase" onClick={() => setSort((s) => ({ key, dir: s.key === key && s.dir === 'asc' ? 'desc' : 'asc' }))}>
                    {h}
                    {sort.key === key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              );
            })}
            <th className={thClass}>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={10} className="py-2 text-muted">
                {busy ? 'Processing the capture…' : 'No conversations: choose a PCAP file to upload.'}
              </td>
            </tr>
          )}
          {rows.map((c) => (
            <tr key={c.id} className="border-t border-line/50">
              <td className={tdClass}>{c.timestamp}</td>
              <td className={`${tdClass} font-mono`}>{c.source_address}</td>
              <td className={`${tdClass} font-mono`}>{c.dest_address}</td>
              <td className={tdClass}>{c.protocol.toUpperCase()}</td>
              <td className={tdClass}>{c.service}</td>
              <td className={tdClass}>{c.source_port}</td>
              <td className={tdClass}>{c.dest_port}</td>
              <td className={tdClass}>{c.data_size}</td>
              <td className={tdClass}>{c.info}</td>
              <td className={`${tdClass} text-right`}>
                <Button variant="ghost" disabled={ro || conversations.length <= 1} onClick={() => void destroy({ conv_id: [c.id] })} aria-label={`Remove conversation ${c.id}`}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function PcapUploadForm({ type }: { type: PcapType }) {
  return <UploadFlow type={type} />;
}
