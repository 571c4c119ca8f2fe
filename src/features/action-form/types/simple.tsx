/** Step 2 for the simpler types: dns, captive_dns, captive_ioc_url, port_scan, sleep, pcap. */
import { Controller, useFormContext } from 'react-hook-form';
import { DNS_QUERY_TYPES } from '@/api/contracts/action-form';
import { CheckboxInput, ErrorText, NumberInput, SelectInput, TextInput, inputClass, labelClass, optionsOf, useFieldError, requiredLabelClass } from '@/features/action-form/controls';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';

export function DnsForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <SelectInput name="dns_action.query_type" label="Query Type" options={optionsOf(DNS_QUERY_TYPES)} required disabled={ro} />
      <TextInput name="dns_action.domain" label="Domain" required placeholder="c2.example-bad.com" disabled={ro} className="md:col-span-2" />
      <SelectInput
        name="dns_action.dns_server_id"
        label="DNS Server"
        numeric
        emptyLabel="Default"
        hint="Default uses the Actor's local DNS server."
        options={env.def.dns_servers.map((s) => ({ value: String(s.id), label: `${s.name} (${s.address})` }))}
        disabled={ro}
      />
    </div>
  );
}

export function CaptiveDnsForm() {
  const ro = !useFormEnv().canCreate;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <SelectInput name="captive_dns_action.query_type" label="Query Type" options={optionsOf(DNS_QUERY_TYPES)} required disabled={ro} />
      <TextInput name="captive_dns_action.query" label="Query" required placeholder="login.example-bad.net" disabled={ro} />
      <TextInput name="captive_dns_action.response" label="Response" required placeholder="198.51.100.23" disabled={ro} />
    </div>
  );
}

export function CaptiveIocUrlForm() {
  const env = useFormEnv();
  const { control, formState } = useFormContext<ActionFormValues>();
  const listError = useFieldError('captive_ioc_url_action.urls');
  const urlErrors = (formState.errors.captive_ioc_url_action?.urls ?? []) as unknown as ({ message?: string } | undefined)[];
  const lineErrors = Array.isArray(urlErrors) ? urlErrors.map((e, i) => (e?.message ? `line ${i + 1}: ${e.message}` : null)).filter(Boolean) : [];
  const limit = env.def.limits.captive_ioc_url_timeout_ms;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <div className="flex flex-col gap-1 md:col-span-2">
        <label htmlFor="ioc-urls" className={requiredLabelClass}>
          URLs
        </label>
        <Controller
          control={control}
          name="captive_ioc_url_action.urls"
          render={({ field }) => (
            <textarea
              id="ioc-urls"
              rows={6}
              disabled={!env.canCreate}
              className={`${inputClass(!!listError || lineErrors.length > 0)} font-mono text-xs`}
              aria-describedby="ioc-urls-hint ioc-urls-error"
              value={field.value.join('\n')}
              onBlur={field.onBlur}
              onChange={(e) => field.onChange(e.target.value.split('\n'))}
            />
          )}
        />
        <span id="ioc-urls-hint" className="text-2xs text-muted">
          One http or https URL per line.
        </span>
        <ErrorText id="ioc-urls-error" message={listError ?? (lineErrors.length ? lineErrors.join('; ') : undefined)} />
      </div>
      <NumberInput name="captive_ioc_url_action.timeout_ms" label="Timeout (ms)" required limit={limit} disabled={!env.canCreate} hint={`${limit.min}-${limit.max} ms, in steps of ${limit.step}.`} />
    </div>
  );
}

export function PortScanForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <TextInput
        name="port_scan_action.ports_list"
        label="Ports"
        required
        mono
        placeholder="1,2,3,5-9,11"
        hint="Comma-delimited ports and ranges, e.g. 1,2,3,5-9,11. Prefix # for a port that should appear unreachable."
        className="md:col-span-2"
        disabled={ro}
      />
      <NumberInput name="port_scan_action.sleep_timer" label="Sleep Timer (ms)" limit={env.def.limits.sleep_timer} required disabled={ro} hint="Pause between probes." />
      <CheckboxInput name="port_scan_action.randomize_scan" label="Randomize Scan" disabled={ro} hint="Probe the ports in random order." />
    </div>
  );
}

export function SleepForm() {
  const env = useFormEnv();
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
      <NumberInput name="sim_action.timeout_ms" label="Sleep Duration (ms)" required limit={env.def.limits.sleep_ms} disabled={!env.canCreate} hint="How long the sequence waits at this step." />
    </div>
  );
}

/** PCAP and Captive IOC PCAP: the upload flow is its own feature; existing Actions keep their capture. */
export function PcapForm({ type }: { type: 'pcap' | 'captive_ioc_pcap' }) {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const k = type === 'pcap' ? 'pcap_action' : 'captive_ioc_pcap_action';
  const creating = env.mode !== 'edit';
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <CheckboxInput name={`${k}.anonymized_ip`} label="Anonymize IP" disabled={ro || !creating} />
        <CheckboxInput name={`${k}.anonymized_mac`} label="Anonymize MAC" disabled={ro || !creating} />
        <CheckboxInput name={`${k}.bypass_http_check`} label="Bypass HTTP Check" disabled={ro} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="pcap-file" className={labelClass}>
          PCAP File
        </label>
        <input id="pcap-file" type="file" accept=".pcap,.pcapng,.cap" disabled className="text-sm" aria-describedby="pcap-file-note" />
        <div className="h-2 w-full overflow-hidden rounded bg-raised" role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={0} />
        <span id="pcap-file-note" className="text-2xs text-muted" role="note">
          {creating
            ? 'Uploading a PCAP and choosing its conversations is not available in this form yet: create PCAP Actions from the PCAP upload.'
            : 'The capture of an existing PCAP Action cannot be replaced here; its addresses can be changed below.'}
        </span>
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <TextInput name={`${k}.attacker_ip`} label="Attacker IP" required mono disabled={ro} />
        <TextInput name={`${k}.destination_ip`} label="Destination IP" required mono disabled={ro} />
      </div>
      <table className="w-full text-left text-xs" aria-label="Conversations">
        <thead className="border-b border-line text-2xs text-muted uppercase">
          <tr>
            {['Timestamp', 'IP1', 'IP2', 'Proto', 'App', 'Port1', 'Port2', 'Data', 'Details'].map((h) => (
              <th key={h} className="py-1 pr-2">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <td colSpan={9} className="py-2 text-muted">
              No conversations: upload a PCAP to list them.
            </td>
          </tr>
        </tbody>
      </table>
      <ErrorText id="pcap-upload-error" message={useFieldError(`${k}.upload`)} />
    </div>
  );
}
