import { useState } from 'react';
import {
  EXPECTED_EVENTS_HINT,
  HOSTED_MAIL_API_KINDS,
  RUNTIME_CHECKBOXES,
  RUNTIME_FIELDS,
  type ActionInfo,
  type MonitorActionBody,
  type MonitorEditorOptions,
} from '@/api/contracts/monitors';
import { EXPECTATION_OPTIONS } from '@/api/contracts/monitor-schedule';
import { ExpectedEventsTable } from './expected-events-table';

const input = 'rounded border border-line bg-surface px-2 py-1 text-sm';
const label = (key: string) => key.replace(/^runtime_/, '').replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/**
 * MON-012, MON-035..039: 'Action: name', its expectations (the failure highlighting of MON-102), the
 * port_scan fields, and the collapsible 'Runtime Parameters' (collapsed at first) with the typed fields
 * of email, dns, file_transfer and pcap, or any runtime_* field for other types. The spoofed From
 * address is blanked and disabled with a hosted mail API sender (MON-079, MON-101).
 */
export function ActionPanel({
  path,
  action,
  info,
  senderKind,
  errors,
  onChange,
}: {
  path: string;
  action: MonitorActionBody;
  info: ActionInfo | undefined;
  senderKind: MonitorEditorOptions['email_profiles'][number]['kind'] | null;
  errors: Record<string, string[]>;
  onChange(patch: Partial<MonitorActionBody>): void;
}) {
  const [open, setOpen] = useState(false);
  const [newKey, setNewKey] = useState('');
  const type = info?.action_type ?? '';
  const err = (f: string) => errors[`${path}.${f}`]?.join(' ');
  const runtime = action.runtime as Record<string, string | number | boolean>;
  const setRuntime = (key: string, value: string | boolean) => onChange({ runtime: { ...runtime, [key]: value } });
  const hosted = senderKind !== null && HOSTED_MAIL_API_KINDS.includes(senderKind);
  const typed = RUNTIME_FIELDS[type];
  const keys = typed ?? Object.keys(runtime);
  const expectation = (f: 'expected_blocked' | 'expected_detected', text: string) => (
    <label className="flex flex-col gap-1 text-xs">
      <span className="text-muted">{text}</span>
      <select className={`${input} ${err(f) ? 'border-red-500 bg-red-500/10' : ''}`} aria-invalid={!!err(f)} value={action[f]} onChange={(e) => onChange({ [f]: e.target.value })}>
        {EXPECTATION_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.name}
          </option>
        ))}
      </select>
      {err(f) && <span className="text-xs text-red-400">{err(f)}</span>}
    </label>
  );
  return (
    <section aria-label={`Action: ${info?.name ?? action.action_id}`} className="flex flex-col gap-3">
      <h3 className="text-sm font-semibold">
        Action: {info?.name ?? `Action ${action.action_id}`} <span className="font-normal text-muted">{info ? `${info.vid} · ${type}` : ''}</span>
      </h3>
      <div className="grid grid-cols-2 gap-3">
        {expectation('expected_blocked', 'Expected Blocked')}
        {expectation('expected_detected', 'Expected Detected')}
      </div>
      {action.expected_detected === 'yes' ? (
        <ExpectedEventsTable actionId={action.action_id} selected={action.expected_events} onChange={(expected_events) => onChange({ expected_events })} />
      ) : (
        <p className={`text-xs ${err('expected_events') ? 'text-red-400' : 'text-muted'}`}>{EXPECTED_EVENTS_HINT}</p>
      )}
      {type === 'port_scan' && (
        <div className="grid grid-cols-3 gap-3">
          {(['scanned_ports', 'expected_open_ports', 'expected_closed_ports'] as const).map((f) => (
            <label key={f} className="flex flex-col gap-1 text-xs">
              <span className="text-muted">{label(f)}</span>
              <input className={`${input} ${err(f) ? 'border-red-500 bg-red-500/10' : ''}`} aria-invalid={!!err(f)} value={action[f]} placeholder="22, 80-90" onChange={(e) => onChange({ [f]: e.target.value })} />
              {err(f) && <span className="text-xs text-red-400">{err(f)}</span>}
            </label>
          ))}
        </div>
      )}
      <div className="rounded border border-line">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className="flex w-full items-center gap-2 px-2 py-1 text-left text-xs font-semibold">
          <span aria-hidden>{open ? '▾' : '▸'}</span> Runtime Parameters
        </button>
        {open && (
          <div className="grid grid-cols-2 gap-3 p-2">
            {keys.length === 0 && <p className="col-span-2 text-xs text-muted">This action type has no runtime parameters.</p>}
            {keys.map((k) =>
              RUNTIME_CHECKBOXES.includes(k) ? (
                <label key={k} className="flex items-center gap-1 text-xs">
                  <input type="checkbox" checked={runtime[k] === true} onChange={(e) => setRuntime(k, e.target.checked)} /> {label(k)}
                </label>
              ) : (
                <label key={k} className="flex flex-col gap-1 text-xs">
                  <span className="text-muted">{k === 'runtime_from_address' ? 'Spoofed From Address' : label(k)}</span>
                  <input
                    className={input}
                    disabled={k === 'runtime_from_address' && hosted}
                    value={k === 'runtime_from_address' && hosted ? '' : String(runtime[k] ?? '')}
                    onChange={(e) => setRuntime(k, e.target.value)}
                    aria-invalid={!!err(`runtime.${k}`)}
                  />
                  {err(`runtime.${k}`) && <span className="text-xs text-red-400">{err(`runtime.${k}`)}</span>}
                </label>
              ),
            )}
            {!typed && (
              <div className="col-span-2 flex gap-2 text-xs">
                <input className={input} placeholder="runtime_name" value={newKey} onChange={(e) => setNewKey(e.target.value)} aria-label="New runtime parameter" />
                <button
                  type="button"
                  className="rounded border border-line px-2"
                  onClick={() => {
                    const k = newKey.startsWith('runtime_') ? newKey : `runtime_${newKey}`;
                    if (newKey.trim()) setRuntime(k.trim(), '');
                    setNewKey('');
                  }}
                >
                  Add parameter
                </button>
              </div>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
