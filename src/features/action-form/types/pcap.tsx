/**
 * Step 2 for pcap and captive_ioc_pcap. A new Action is made from an uploaded capture (the PCAP upload
 * calls of the director): choosing a file starts the upload (its bytes-sent progress is shown while it
 * travels; the director parses it as it streams in), then the director's status is polled every 2
 * seconds and the conversations are listed once it completes; conversations can be removed one by
 * one or by protocol. An upload that ends in an Error status shows the upload record's notifications.
 */
import { useEffect, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import {
  PCAP_STATUS,
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
} from '@/api/contracts/pcap';
import { ApiError, http } from '@/api/http';
import { postWithUploadProgress } from '@/api/upload';
import { Button } from '@/ui/button';
import { flash } from '@/ui/toasts';
import { useSubmit } from '@/ui/use-submit';
import { CheckboxInput, ErrorText, TextInput, labelClass, useFieldError } from '@/features/action-form/controls';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';
import { pcapUploadPane } from '@/features/action-form/pane-context';
import { usePaneContext } from '@/panes/use-pane-context';
import { ConversationTable } from './pcap-conversations';

type PcapType = 'pcap' | 'captive_ioc_pcap';

const showConversations = (id: number) => http.get<ShowConversationsAnswer>(`/manage_sims/upload/show_conversations/${id}.json`, { params: { details: true } });

function UploadFlow({ type }: { type: PcapType }) {
  const env = useFormEnv();
  const k = type === 'pcap' ? 'pcap_action' : 'captive_ioc_pcap_action';
  const { setValue, getValues } = useFormContext<ActionFormValues>();
  const [percent, setPercent] = useState(0);
  const [status, setStatus] = useState('');
  const [failed, setFailed] = useState(false);
  // Busy from the file's choice until its conversations are shown or the upload failed.
  const { busy, run } = useSubmit({ onError: (message) => fail(message) });
  const [upload, setUpload] = useState<PcapUploadRecord | null>(null);
  const [conversations, setConversations] = useState<PcapConversation[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const uploadId = useRef<number | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const ro = !env.canCreate;
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
    uploadId.current = null;
  }, []);
  usePaneContext(pcapUploadPane, { openPicker: ro ? null : () => fileInput.current?.click() });

  const fail = (text: string, rec: PcapUploadRecord | null = null) => {
    setFailed(true);
    setPercent(100);
    setStatus(text);
    setUpload(rec);
    setConversations([]);
    flash('alert', `${PCAP_UPLOAD_ERROR_FLASH_PREFIX}${text} ${PCAP_UPLOAD_ERROR_FLASH_SUFFIX}`);
    uploadId.current = null;
    setValue(`${k}.upload`, null, { shouldDirty: true });
  };
  /** An Error status: the upload record's notifications say what was wrong. */
  const failWithRecord = async (id: number, text: string) => {
    const rec = await showConversations(id).then((a) => a.data.upload, () => null);
    fail(text, rec);
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
    const answer = await showConversations(id);
    const rec = answer.data.upload;
    if (!rec.valid_upload || isPcapErrorStatus(rec.status)) return fail(rec.status, rec);
    setValue(`${k}.upload`, id, { shouldDirty: true, shouldValidate: true });
    applyConversations(answer.data.conversations, rec);
  };
  /** Waits one poll interval; never resolves once the flow was left (unmounted or a new file chosen). */
  const pause = () => new Promise<void>((resolve) => (timer.current = setTimeout(resolve, PCAP_STATUS_POLL_MS)));
  /** Polls the processing status every PCAP_STATUS_POLL_MS until it completes or fails. */
  const process = async (id: number) => {
    for (;;) {
      await pause();
      if (uploadId.current !== id) return;
      const s = await http.get<CheckProcessStatusAnswer>(`/manage_sims/upload/check_process_status/${id}`, { background: true });
      if (uploadId.current !== id) return;
      setPercent(s.data.percent_complete);
      setStatus(s.data.status);
      if (isPcapErrorStatus(s.data.status)) return failWithRecord(id, s.data.status);
      if (s.data.percent_complete >= 100) return loadConversations(id);
    }
  };
  const start = (file: File) => {
    if (timer.current) clearTimeout(timer.current);
    uploadId.current = null;
    setFailed(false);
    setPercent(0);
    setStatus(PCAP_STATUS.uploading);
    setConversations([]);
    setUpload(null);
    const form = new FormData();
    form.append('anonymized_ip', String(getValues(`${k}.anonymized_ip`)));
    form.append('anonymized_mac', String(getValues(`${k}.anonymized_mac`)));
    form.append('file', file, file.name);
    return run(async () => {
      // The bytes sent, until the director answers (it has parsed the capture as it arrived).
      const answer = await postWithUploadProgress<UploadPcapAnswer>('/manage_sims/upload/upload_pcap_file', form, (sent, total) => setPercent(Math.min(99, Math.floor((sent * 100) / Math.max(1, total)))));
      uploadId.current = answer.data.upload_id;
      setStatus(PCAP_STATUS.processing);
      await process(answer.data.upload_id);
    });
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

  const protocols = [...new Set(conversations.map((c) => c.protocol))];
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
          ref={fileInput}
          id="pcap-file"
          type="file"
          accept=".pcap,.pcapng,.cap"
          disabled={ro || busy}
          className="text-sm"
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
        {upload?.notifications?.length ? (
          <ul aria-label="Notifications" className="flex flex-col gap-0.5">
            {upload.notifications.map((n, i) => (
              <li key={i} className={`text-xs ${n.level === 'error' ? 'text-red-500' : n.level === 'warning' ? 'text-amber-600' : 'text-muted'}`}>
                {n.message}
              </li>
            ))}
          </ul>
        ) : null}
        <ErrorText id="pcap-upload-error" message={useFieldError(`${k}.upload`)} />
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <TextInput name={`${k}.attacker_ip`} label="Attacker IP" required mono disabled={ro} />
        <TextInput name={`${k}.destination_ip`} label="Destination IP" required mono disabled={ro} />
      </div>
      <div className="flex items-center justify-between">
        <span className={labelClass}>Conversations</span>
        <div className="flex gap-2">
          {upload?.pcap_library_id && !failed ? (
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
      <ConversationTable
        conversations={conversations}
        emptyText={busy ? 'Processing the capture…' : 'No conversations: choose a PCAP file to upload.'}
        canRemove={!ro}
        onRemove={(id) => void destroy({ conv_id: [id] })}
      />
    </div>
  );
}

export function PcapUploadForm({ type }: { type: PcapType }) {
  return <UploadFlow type={type} />;
}
