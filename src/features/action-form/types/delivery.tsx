/** Step 2 for email and malicious file transfer. */
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import {
  APP_LAYERS,
  ATTACHMENT_ENCODINGS,
  BLOCK_MATCHING_SCHEMES,
  CONTENT_ENCODINGS,
  MIME_TEXT_TYPES,
  TRANSFER_METHODS,
  appLayerPort,
  tunnelNeedsCidr,
  tunnelNeedsDns,
  tunnelProtocolsFor,
} from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import { AddFileButton, AttachmentTable, FileLabel, unattachedNotice } from '@/features/action-form/attachments';
import { CheckboxInput, ErrorText, NumberInput, SelectInput, TextAreaInput, TextInput, inputClass, labelClass, optionsOf, useFieldError, requiredLabelClass } from '@/features/action-form/controls';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';

const SCHEME_LABELS: Record<string, string> = { subject: 'Subject', attachment: 'Attachment', subject_and_attachment: 'Subject and Attachment' };

export function EmailForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const { control, register } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'email_action.files' });
  const files = useWatch<ActionFormValues, 'email_action.files'>({ name: 'email_action.files' }) ?? [];
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <TextInput name="email_action.subject" label="Subject" required disabled={ro} className="md:col-span-3" />
        <SelectInput name="email_action.mime_text_type" label="Body Type" options={optionsOf(MIME_TEXT_TYPES)} required disabled={ro} />
        <SelectInput name="email_action.block_matching_scheme" label="Block Matching Scheme" options={optionsOf(BLOCK_MATCHING_SCHEMES, SCHEME_LABELS)} required disabled={ro} hint="What identifies the email as blocked." />
      </div>
      <TextAreaInput name="email_action.body" label="Body" required rows={8} disabled={ro} mono />
      <fieldset className="flex flex-col gap-2">
        <legend className={labelClass}>Attachments</legend>
        {fields.length > 0 && (
          <AttachmentTable
            label="Email attachments"
            rows={fields}
            fileIdAt={(i) => files[i]?.file_id}
            columns={[
              {
                header: 'Attachment Encoding',
                cell: (i) => (
                  <select aria-label="Attachment Encoding" disabled={ro} className={inputClass(false)} {...register(`email_action.files.${i}.attachment_encoding`)}>
                    {ATTACHMENT_ENCODINGS.map((e) => (
                      <option key={e} value={e}>
                        {e}
                      </option>
                    ))}
                  </select>
                ),
              },
              {
                header: 'Ignore if Missing',
                cell: (i) => <input type="checkbox" aria-label="Ignore if Missing" disabled={ro} className="accent-[rgb(var(--accent))]" {...register(`email_action.files.${i}.ignore_if_missing`)} />,
              },
            ]}
            disabled={ro}
            onRemove={remove}
          />
        )}
        <AddFileButton
          type="email"
          attachedIds={files.map((f) => f.file_id)}
          onAttach={(added) => added.forEach((a) => append({ file_id: a.id, attachment_encoding: 'base64', ignore_if_missing: false }))}
        />
      </fieldset>
    </div>
  );
}

export function FileTransferForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const { control, setValue, getValues } = useFormContext<ActionFormValues>();
  const [fileId, appLayer, tunnel, dnsDomain, compare] = useWatch<ActionFormValues, ['file_transfer_action.file_transfer_library_id', 'file_transfer_action.app_layer', 'file_transfer_action.tunnel_protocol', 'file_transfer_action.dns_domain', 'file_transfer_action.compare_transfer']>({
    name: ['file_transfer_action.file_transfer_library_id', 'file_transfer_action.app_layer', 'file_transfer_action.tunnel_protocol', 'file_transfer_action.dns_domain', 'file_transfer_action.compare_transfer'],
  });
  const fileError = useFieldError('file_transfer_action.file_transfer_library_id');
  const appError = useFieldError('file_transfer_action.app_layer');
  const tunnelError = useFieldError('file_transfer_action.tunnel_protocol');
  const protocols = tunnelProtocolsFor(appLayer ?? '');
  const dnsLink = (() => {
    const d = (dnsDomain ?? '').trim();
    if (!d) return null;
    const q = new URLSearchParams({ action_type: 'dns', domain: d, dns_name: `DNS Query - ${d}`, dns_desc: `Looks up ${d}, the DNS tunnel domain of the malicious file transfer "${getValues('sim_action.name')}".` });
    return `/manage_sims/actions/unified_action/new?${q.toString()}`;
  })();

  return (
    <div className="flex flex-col gap-3">
      <fieldset className="flex flex-col gap-2">
        <legend className={requiredLabelClass}>
          File
        </legend>
        {fileId ? (
          <div className="flex items-center justify-between rounded border border-line px-2 py-1">
            <FileLabel fileId={fileId} />
            <Button
              variant="ghost"
              disabled={ro}
              onClick={() => {
                setValue('file_transfer_action.file_transfer_library_id', null, { shouldDirty: true, shouldValidate: true });
                unattachedNotice();
              }}
            >
              Remove
            </Button>
          </div>
        ) : (
          <span className="text-sm text-muted">No file attached.</span>
        )}
        <AddFileButton
          type="file_transfer"
          attachedIds={fileId ? [fileId] : []}
          disabled={!!fileId}
          disabledReason={fileId ? 'Malicious File Transfer accepts one attached file at a time: remove it to attach another.' : undefined}
          onAttach={(added) => setValue('file_transfer_action.file_transfer_library_id', added[0]!.id, { shouldDirty: true, shouldValidate: true })}
        />
        <ErrorText id="ft-file-error" message={fileError} />
      </fieldset>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <CheckboxInput name="file_transfer_action.compare_transfer" label="Compare Transfer" disabled={ro} hint="Compare the received file with the original." />
        <CheckboxInput name="file_transfer_action.keep_after_compare" label="Keep After Compare" disabled={ro || !compare} />
        <div />
        <TextInput name="file_transfer_action.user_agent" label="User Agent" disabled={ro} className="md:col-span-2" />
        <TextInput name="file_transfer_action.content_encoding" label="Content Encoding" mono disabled={ro} placeholder="zip,gzip" hint={`Any of ${CONTENT_ENCODINGS.join(', ')}; several comma-separated, without a period.`} />
        <div className="flex flex-col gap-1">
          <label htmlFor="ft-app-layer" className={requiredLabelClass}>
            App Layer
          </label>
          <Controller
            control={control}
            name="file_transfer_action.app_layer"
            render={({ field }) => (
              <>
                {/* A known layer from the list, or a port number typed in ("otherwise the value itself"). */}
                <input
                  id="ft-app-layer"
                  ref={field.ref}
                  list="ft-app-layers"
                  disabled={ro}
                  className={inputClass(!!appError)}
                  aria-invalid={!!appError}
                  aria-describedby="ft-app-layer-hint"
                  placeholder="https"
                  value={field.value}
                  onBlur={field.onBlur}
                  onChange={(e) => {
                    const v = e.target.value.trim();
                    field.onChange(v);
                    const port = appLayerPort(v);
                    if (port !== null) setValue('file_transfer_action.target_port', port, { shouldDirty: true, shouldValidate: true });
                    if (v === 'scp' && getValues('file_transfer_action.tunnel_protocol') === 'ssh') setValue('file_transfer_action.tunnel_protocol', 'none', { shouldDirty: true });
                  }}
                />
                <datalist id="ft-app-layers">
                  {APP_LAYERS.map((a) => (
                    <option key={a} value={a} />
                  ))}
                </datalist>
                <span id="ft-app-layer-hint" className="text-2xs text-muted">
                  {APP_LAYERS.join(', ')} or a port number.
                </span>
              </>
            )}
          />
          <ErrorText id="ft-app-layer-error" message={appError} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="ft-tunnel" className={labelClass}>
            Tunnel Protocol
          </label>
          <Controller
            control={control}
            name="file_transfer_action.tunnel_protocol"
            render={({ field }) => (
              <select
                id="ft-tunnel"
                ref={field.ref}
                disabled={ro || !appLayer}
                className={inputClass(!!tunnelError)}
                aria-describedby="ft-tunnel-hint"
                value={field.value}
                onBlur={field.onBlur}
                onChange={(e) => field.onChange(e.target.value)}
              >
                {protocols.map((p) => (
                  <option key={p} value={p}>
                    {p === 'none' ? 'None' : p.toUpperCase()}
                  </option>
                ))}
              </select>
            )}
          />
          <span id="ft-tunnel-hint" className="text-2xs text-muted">
            {appLayer ? (appLayer === 'scp' ? 'SSH is not offered over SCP.' : '') : 'Choose an app layer first.'}
          </span>
          <ErrorText id="ft-tunnel-error" message={tunnelError} />
        </div>
        <SelectInput name="file_transfer_action.method" label="Method" options={optionsOf(TRANSFER_METHODS)} required disabled={ro} />
        <NumberInput name="file_transfer_action.target_port" label="Target Port" required limit={env.def.limits.server_port} disabled={ro} hint="Set from the app layer: ftp 21, http 80, https 443, scp 25." />
        {tunnelNeedsCidr(tunnel ?? 'none') && <TextInput name="file_transfer_action.tunnel_cidr" label="Tunnel CIDR" required mono placeholder="10.20.0.0/16" disabled={ro} />}
      </div>
      {tunnelNeedsDns(tunnel ?? 'none') && (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <TextInput name="file_transfer_action.dns_domain" label="DNS Domain" required placeholder="tunnel.example-bad.com" disabled={ro} />
          <TextInput name="file_transfer_action.dns_server_ip" label="DNS Server IP" required mono placeholder="203.0.113.53" disabled={ro} />
          {dnsLink && (
            <a href={dnsLink} target="_blank" rel="noopener" className="self-end pb-2 text-sm text-accent underline">
              Create a malicious DNS Action for this domain
            </a>
          )}
        </div>
      )}
    </div>
  );
}
