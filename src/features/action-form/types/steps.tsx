/** Step 2 for socket and website: settings and an ordered list of steps. */
import { useWatch } from 'react-hook-form';
import { HTTP_VERSIONS, SOCKET_COMM_TYPES, SOCKET_DATA_TYPES } from '@/api/contracts/action-form';
import { CheckboxInput, NumberInput, SelectInput, TextAreaInput, TextInput, optionsOf } from '@/features/action-form/controls';
import { useFormEnv } from '@/features/action-form/form-env';
import type { ActionFormValues } from '@/features/action-form/form-model';
import { StepList } from '@/features/action-form/step-list';

const short = (s: string | undefined, n = 60) => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t || '(empty)';
};

export function SocketForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const steps = useWatch<ActionFormValues, 'socket_action.steps'>({ name: 'socket_action.steps' });
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <SelectInput name="socket_action.comm_type" label="Communication Type" options={SOCKET_COMM_TYPES.map((v) => ({ value: v, label: v.toUpperCase() }))} required disabled={ro} />
        <NumberInput name="socket_action.server_port" label="Server Port" required limit={env.def.limits.server_port} disabled={ro} />
      </div>
      <StepList
        name="socket_action.steps"
        noun="Step"
        disabled={ro}
        title={(i) => `Step ${i + 1}`}
        summary={(i) => `${steps?.[i]?.data_type ?? ''} · ${short(steps?.[i]?.request)}`}
        newItem={() => ({ data_type: 'ascii', request: '', response: '' })}
      >
        {(i) => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
            <SelectInput name={`socket_action.steps.${i}.data_type`} label="Data Type" options={optionsOf(SOCKET_DATA_TYPES)} required disabled={ro} className="md:col-span-2 md:w-48" />
            <TextAreaInput name={`socket_action.steps.${i}.request`} label="Request" required rows={4} mono disabled={ro} />
            <TextAreaInput name={`socket_action.steps.${i}.response`} label="Response" rows={4} mono disabled={ro} />
          </div>
        )}
      </StepList>
    </div>
  );
}

export function WebsiteForm() {
  const env = useFormEnv();
  const ro = !env.canCreate;
  const steps = useWatch<ActionFormValues, 'website_action.steps'>({ name: 'website_action.steps' });
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <NumberInput name="website_action.server_port" label="Server Port" required limit={env.def.limits.server_port} disabled={ro} />
        <SelectInput name="website_action.http_ver" label="HTTP Version" options={HTTP_VERSIONS.map((v) => ({ value: v, label: `HTTP/${v}` }))} required disabled={ro} />
        <CheckboxInput name="website_action.use_https" label="Use HTTPS" disabled={ro} className="self-end pb-2" />
      </div>
      <StepList
        name="website_action.steps"
        noun="Step"
        disabled={ro}
        title={(i) => `Step ${i + 1}`}
        summary={(i) => `${short(steps?.[i]?.request)} → ${steps?.[i]?.resp_code ?? ''}`}
        newItem={() => ({ request: '', req_headers: '', request_body: '', resp_code: 200, resp_headers: '', response: '' })}
      >
        {(i) => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
            <TextInput name={`website_action.steps.${i}.request`} label="Request" required mono placeholder="GET /index.html HTTP/1.1" disabled={ro} className="md:col-span-2" />
            <TextAreaInput name={`website_action.steps.${i}.req_headers`} label="Request Headers" rows={3} mono disabled={ro} />
            <TextAreaInput name={`website_action.steps.${i}.request_body`} label="Request Body" rows={3} mono disabled={ro} />
            <NumberInput name={`website_action.steps.${i}.resp_code`} label="Response Code" required limit={env.def.limits.resp_code} disabled={ro} className="md:w-40" />
            <div />
            <TextAreaInput name={`website_action.steps.${i}.resp_headers`} label="Response Headers" rows={3} mono disabled={ro} />
            <TextAreaInput name={`website_action.steps.${i}.response`} label="Response" rows={3} mono disabled={ro} />
          </div>
        )}
      </StepList>
    </div>
  );
}
