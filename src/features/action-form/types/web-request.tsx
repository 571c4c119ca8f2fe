/** Step 2 for web_request: target, request (method, path, body, parameters, headers) and pass/fail conditions. */
import { useId } from 'react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { PASS_FAIL_ERROR, WEB_METHODS } from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import { tableClass, tdClass, thClass, RemoveHeader } from '@/features/action-form/table-parts';
import { CheckboxInput, ErrorText, SelectInput, TextInput, inputClass, labelClass, optionsOf, useFieldError } from '@/features/action-form/controls';
import { Section } from '@/ui/section';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';

/** A body may be 'kind:v:format:v:content'; the form edits the three parts. */
export function splitBody(body: string): [string, string, string] {
  const parts = body.split(':v:');
  if (parts.length >= 3) return [parts[0]!, parts[1]!, parts.slice(2).join(':v:')];
  return ['', '', body];
}
export function joinBody(kind: string, format: string, content: string): string {
  return kind || format ? `${kind}:v:${format}:v:${content}` : content;
}

const BODY_KINDS = [
  { value: '', label: 'Raw' },
  { value: 'form', label: 'Form' },
  { value: 'json', label: 'JSON' },
  { value: 'xml', label: 'XML' },
  { value: 'multipart', label: 'Multipart' },
];

function Body({ ro }: { ro: boolean }) {
  const { control } = useFormContext<ActionFormValues>();
  const id = useId();
  const error = useFieldError('web_request_action.body');
  return (
    <Controller
      control={control}
      name="web_request_action.body"
      render={({ field }) => {
        const [kind, format, content] = splitBody(field.value ?? '');
        return (
          <div className="flex flex-col gap-2">
            <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-kind`} className={labelClass}>
                  Body Type
                </label>
                <select id={`${id}-kind`} disabled={ro} className={inputClass(false)} value={kind} onChange={(e) => field.onChange(joinBody(e.target.value, format, content))}>
                  {BODY_KINDS.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </select>
              </div>
              <div className="flex flex-col gap-1">
                <label htmlFor={`${id}-format`} className={labelClass}>
                  Body Format
                </label>
                <input id={`${id}-format`} disabled={ro} placeholder="urlencoded" className={inputClass(false)} value={format} onChange={(e) => field.onChange(joinBody(kind, e.target.value, content))} />
              </div>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-content`} className={labelClass}>
                Body
              </label>
              <textarea id={`${id}-content`} rows={4} disabled={ro} className={`${inputClass(!!error)} font-mono text-xs`} value={content} onBlur={field.onBlur} onChange={(e) => field.onChange(joinBody(kind, format, e.target.value))} />
              <ErrorText id={`${id}-error`} message={error} />
            </div>
          </div>
        );
      }}
    />
  );
}

function KeyValues({ name, title, ro }: { name: 'web_request_action.request.parameters' | 'web_request_action.request.headers'; title: string; ro: boolean }) {
  const { control, register } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name });
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between">
        <span className={labelClass}>{title}</span>
        <Button variant="ghost" disabled={ro} onClick={() => append({ key: '', value: '' })}>
          + Add
        </Button>
      </div>
      {fields.length === 0 ? (
        <span className="text-xs text-muted">None.</span>
      ) : (
        <table className={tableClass} aria-label={title}>
          <tbody>
            {fields.map((f, i) => (
              <tr key={f.id}>
                <td className={tdClass}>
                  <KeyCell name={`${name}.${i}.key`} label={`${title} ${i + 1} key`} ro={ro} />
                </td>
                <td className={tdClass}>
                  <input aria-label={`${title} ${i + 1} value`} disabled={ro} className={`${inputClass(false)} w-full font-mono text-xs`} {...register(`${name}.${i}.value`)} />
                </td>
                <td className={`${tdClass} text-right`}>
                  <Button variant="ghost" disabled={ro} onClick={() => remove(i)} aria-label={`Remove ${title} ${i + 1}`}>
                    ×
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function KeyCell({ name, label, ro }: { name: `web_request_action.request.${'parameters' | 'headers'}.${number}.key`; label: string; ro: boolean }) {
  const { register } = useFormContext<ActionFormValues>();
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-0.5">
      <input aria-label={label} aria-invalid={!!error} disabled={ro} placeholder="Name" className={`${inputClass(!!error)} w-full font-mono text-xs`} {...register(name)} />
      <ErrorText id={`${name}-error`} message={error} />
    </div>
  );
}

function Conditions({ ro }: { ro: boolean }) {
  const env = useFormEnv();
  const { control } = useFormContext<ActionFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: 'web_request_action.conditions' });
  const listError = useFieldError('web_request_action.conditions');
  const limit = env.def.limits.condition_code;
  return (
    <Section variant="card" title="Conditions" actions={<Button disabled={ro} onClick={() => append({ code: 200, response_regex: '', pass_fail_error: 'fail' })}>+ Add Condition</Button>}>
      <span className="text-2xs text-muted">Checked in order: the first condition whose response code (0 for any) and response regex match decides pass, fail or error.</span>
      <table className={tableClass} aria-label="Conditions">
        <thead>
          <tr>
            <th className={thClass}>Response Code</th>
            <th className={thClass}>Response Regex</th>
            <th className={thClass}>Result</th>
            <RemoveHeader />
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => (
            <tr key={f.id}>
              <td className={`${tdClass} w-32`}>
                <CodeCell index={i} ro={ro} min={limit.min} max={limit.max} />
              </td>
              <td className={tdClass}>
                <RegexCell index={i} ro={ro} />
              </td>
              <td className={`${tdClass} w-32`}>
                <SelectInput name={`web_request_action.conditions.${i}.pass_fail_error`} label={`Condition ${i + 1} result`} hideLabel options={optionsOf(PASS_FAIL_ERROR, { pass: 'Pass', fail: 'Fail', error: 'Error' })} disabled={ro} />
              </td>
              <td className={`${tdClass} text-right`}>
                <Button variant="ghost" disabled={ro || fields.length <= 1} onClick={() => remove(i)} aria-label={`Remove condition ${i + 1}`}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorText id="wr-conditions-error" message={listError} />
    </Section>
  );
}

function CodeCell({ index, ro, min, max }: { index: number; ro: boolean; min: number; max: number }) {
  const { register } = useFormContext<ActionFormValues>();
  const name = `web_request_action.conditions.${index}.code` as const;
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-0.5">
      <input
        type="number"
        min={min}
        max={max}
        aria-label={`Condition ${index + 1} response code`}
        aria-invalid={!!error}
        disabled={ro}
        className={`${inputClass(!!error)} w-full`}
        {...register(name, { setValueAs: (v: unknown) => (v === '' || v == null ? null : Number(v)) })}
      />
      <ErrorText id={`${name}-error`} message={error} />
    </div>
  );
}

function RegexCell({ index, ro }: { index: number; ro: boolean }) {
  const { register } = useFormContext<ActionFormValues>();
  const name = `web_request_action.conditions.${index}.response_regex` as const;
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-0.5">
      <input aria-label={`Condition ${index + 1} response regex`} aria-invalid={!!error} disabled={ro} className={`${inputClass(!!error)} w-full font-mono text-xs`} {...register(name)} />
      <ErrorText id={`${name}-error`} message={error} />
    </div>
  );
}

export function WebRequestForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const listId = useId();
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <TextInput name="web_request_action.host" label="Host" required placeholder="shop.example.com" disabled={ro} />
        <TextInput name="web_request_action.profile" label="Profile" list={listId} placeholder="Chrome 124 on Windows 10" disabled={ro} hint="The client the request imitates." />
        <datalist id={listId}>
          {env.def.web_request_profiles.map((p) => (
            <option key={p} value={p} />
          ))}
        </datalist>
        <SelectInput name="web_request_action.http_method" label="HTTP Method" options={optionsOf(WEB_METHODS)} required disabled={ro} />
        <TextInput name="web_request_action.path" label="Path" required mono placeholder="/login.php" disabled={ro} className="md:col-span-2" />
        <CheckboxInput name="web_request_action.encode_url" label="Encode URL" disabled={ro} className="self-end pb-2" />
      </div>
      <Section variant="card" title="Request">
        <Body ro={ro} />
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <KeyValues name="web_request_action.request.parameters" title="Parameters" ro={ro} />
          <KeyValues name="web_request_action.request.headers" title="Headers" ro={ro} />
        </div>
        <div className="flex gap-6">
          <CheckboxInput name="web_request_action.request.auto_content_length" label="Automatic Content-Length" disabled={ro} />
          <CheckboxInput name="web_request_action.request.auto_host_header" label="Automatic Host Header" disabled={ro} />
        </div>
      </Section>
      <Conditions ro={ro} />
    </div>
  );
}
